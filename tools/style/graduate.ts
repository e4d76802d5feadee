import { z } from 'zod';
import { ClassMethod } from '../../src-shared/style/classify.js';
import { RampName, sampleRamp } from '../../src-shared/style/colourRamps.js';
import type { GraduatedStyle } from '../../src-shared/style/styleModel.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { layerSource } from '../../src-shared/domain/source.js';
import {
  applySymbolParams,
  classTable,
  ColourParam,
  currentSymbol,
  fmt,
  NUMERIC_FIELD,
  type Preview,
  saveStyle,
  SymbolParams,
  VECTOR_LAYER,
} from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

export const graduate = defineTool({
  id: 'style.graduate',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Graduated style (classes)',
  description:
    'Colours a vector layer by a numeric field in classes (a choropleth): equal_interval, quantile (equal counts) or ' +
    'jenks (natural breaks), n classes, coloured from a ramp. The class breaks are computed from the field values by ' +
    'GDAL in the worker; pass method manual with breaks to set them yourself. A value v is in class i when ' +
    'breaks[i] <= v < breaks[i+1] (the last class includes the maximum). Labels already set are kept. Returns the ' +
    'layer, the field, the method and each class with its range, colour and feature count.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a vector layer)'),
    field: z.string().min(1).describe('Numeric field to classify'),
    method: z
      .union([ClassMethod, z.literal('manual')])
      .default('quantile')
      .describe('equal_interval, quantile, jenks (natural breaks) or manual'),
    classes: z.number().int().min(2).max(12).default(5).describe('Number of classes'),
    ramp: RampName.default('ylorrd').describe('Colour ramp, low to high values'),
    invert: z.boolean().default(false).describe('Reverse the ramp'),
    breaks: z
      .array(z.number())
      .min(2)
      .max(13)
      .optional()
      .describe('Class edges, ascending, classes + 1 numbers; required for manual, otherwise computed from the data'),
    null_colour: ColourParam.nullable().default(null).describe('Colour of features without a value; null hides them'),
    proportional_sizes: z.boolean().default(false).describe('Points/lines: also grow the size from class to class'),
    ...SymbolParams,
  }),
  rules: { layer: VECTOR_LAYER, field: NUMERIC_FIELD },
  safety: 'write',
  // The style panel runs it as the person (entries/trigger), audited and undoable like the model's call.
  userVisible: true,
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Colour ${a.layer} by ${a.field}: ${a.classes} ${a.method} classes, ${a.ramp}`,
  async prepare(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    if (args.method === 'manual') {
      const b = args.breaks;
      if (!b || b.some((v, i) => i > 0 && !(v > b[i - 1]!))) {
        throw new ToolFailure(
          'invalid_params',
          'breaks: method manual needs ascending class edges (classes + 1 numbers).',
          true,
          'e.g. "breaks": [0, 1000, 5000, 20000]; or use method quantile, equal_interval or jenks.',
        );
      }
      const preview: Preview = { layer: layer.name, field: args.field, method: 'manual', breaks: b.map(fmt).join(', ') };
      return { args: { ...args, classes: b.length - 1 }, preview };
    }
    const result = await handles.gdal.call(
      'style.classify',
      { source: layerSource(layer), field: args.field, method: args.method, classes: args.classes },
      { signal },
    );
    if (result.valid === 0) {
      throw new ToolFailure(
        'invalid_params',
        `field: '${args.field}' of '${layer.name}' has no numeric values (${result.nulls} features without one).`,
        false,
        'Choose another field (inspect_layer_info lists them).',
      );
    }
    const colours = sampleRamp(args.ramp, result.breaks.length - 1, args.invert);
    const preview: Preview = {
      layer: layer.name,
      field: args.field,
      method: args.method,
      classes: classTable(result.breaks, colours, result.counts)
        .map((c) => `${c.range} (${c.count})`)
        .join('; '),
      ...(result.breaks.length - 1 < args.classes
        ? { note: `only ${result.breaks.length - 1} classes: the field has few distinct values` }
        : {}),
      features_without_value: result.nulls,
    };
    return { args: { ...args, breaks: result.breaks, classes: result.breaks.length - 1 }, preview };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const breaks = args.breaks!;
    const k = breaks.length - 1;
    const colours = sampleRamp(args.ramp, k, args.invert);
    const base = currentSymbol(layer);
    const sizes = args.proportional_sizes
      ? Array.from({ length: k }, (_, i) => Math.round((2 + (i * 10) / Math.max(1, k - 1)) * 10) / 10)
      : undefined;
    const style: GraduatedStyle = applySymbolParams(
      {
        type: 'graduated' as const,
        field: args.field,
        method: args.method,
        breaks,
        colours,
        ramp: args.ramp,
        nullColour: args.null_colour,
        ...(sizes ? { sizes } : {}),
        ...base,
      },
      args,
    );
    return { ...saveStyle(handles.project, layer, style), field: args.field, method: args.method, classes: classTable(breaks, colours) };
  },
});
