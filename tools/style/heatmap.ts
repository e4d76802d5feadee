import { z } from 'zod';
import { RampName } from '../../src-shared/style/colourRamps.js';
import { HEATMAP_RADIUS_LIMITS, HeatmapRadiusUnits, type HeatmapStyle } from '../../src-shared/style/styleModel.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { layerSource } from '../../src-shared/domain/source.js';
import { findLayer } from '../layers/findLayer.js';
import { NUMERIC_FIELD, saveStyle, VECTOR_LAYER } from './styleLayer.js';

export const heatmap = defineTool({
  id: 'style.heatmap',
  version: '1.1.0',
  group: 'style',
  icon: 'palette',
  title: 'Heatmap',
  description:
    'Draws a point layer as a density heatmap: radius of influence (pixels or metres), intensity, an optional numeric weight ' +
    'field (each point counts in proportion to its value, scaled by the field maximum read from the data) and a ' +
    'colour ramp. Points only. Returns the layer, radius and units, intensity, weight field and its maximum.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a point layer)'),
    radius: z
      .number()
      .min(1)
      .max(HEATMAP_RADIUS_LIMITS.meters.max)
      .default(20)
      .describe('Radius of each point’s influence, in radius_units'),
    radius_units: HeatmapRadiusUnits.default('pixels').describe('pixels (1–200): same on screen at every zoom; meters: a ground distance'),
    intensity: z.number().min(0.01).max(20).default(1).describe('Multiplies the density; above 1 saturates sooner'),
    weight_field: z.string().min(1).nullable().default(null).describe('Numeric field weighting each point; null: every point counts 1'),
    ramp: RampName.default('ylorrd').describe('Colour ramp from sparse to dense'),
    invert: z.boolean().default(false).describe('Reverse the ramp'),
    opacity: z.number().min(0).max(1).default(0.85).describe('Opacity of the heatmap, 0–1'),
    weight_max: z.number().positive().nullable().optional().describe('Weight that counts as 1; default: the field maximum from the data'),
  }),
  rules: { layer: [...VECTOR_LAYER, 'geometry:point'], weight_field: NUMERIC_FIELD },
  safety: 'write',
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Heatmap of ${a.layer}${a.weight_field ? ` weighted by ${a.weight_field}` : ''}`,
  async prepare(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    const limits = HEATMAP_RADIUS_LIMITS[args.radius_units];
    if (args.radius < limits.min || args.radius > limits.max) {
      throw new ToolFailure(
        'invalid_params',
        `radius: ${args.radius} ${args.radius_units} is outside ${limits.min}–${limits.max}.`,
        false,
        args.radius_units === 'pixels' ? "For a distance on the ground, pass radius_units: 'meters'." : undefined,
      );
    }
    let weightMax = args.weight_max ?? null;
    if (args.weight_field && weightMax === null) {
      const stats = await handles.gdal.call(
        'style.classify',
        { source: layerSource(layer), field: args.weight_field, method: 'equal_interval', classes: 1 },
        { signal },
      );
      weightMax = stats.max !== null && stats.max > 0 ? stats.max : null;
    }
    return {
      args: { ...args, weight_max: weightMax },
      preview: {
        layer: layer.name,
        points: layer.info.featureCount,
        radius: `${args.radius} ${args.radius_units === 'meters' ? 'm' : 'px'}`,
        weight: args.weight_field ?? 'none',
        weight_max: weightMax,
      },
    };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const style: HeatmapStyle = {
      type: 'heatmap',
      radius: args.radius,
      ...(args.radius_units === 'meters' ? { radiusUnits: 'meters' as const } : {}),
      intensity: args.intensity,
      weightField: args.weight_field,
      weightMax: args.weight_max ?? null,
      ramp: args.ramp,
      invert: args.invert,
      opacity: args.opacity,
    };
    return {
      ...saveStyle(handles.project, layer, style),
      radius: style.radius,
      radius_units: args.radius_units,
      intensity: style.intensity,
      weight_field: style.weightField,
      weight_max: style.weightMax,
    };
  },
});
