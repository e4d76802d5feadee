import { z } from 'zod';
import { BIVARIATE_PALETTE } from '../../src-shared/style/colourRamps.js';
import type { BivariateStyle } from '../../src-shared/style/styleModel.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import type { GdalHandle } from '../../src-shared/tools/handles.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { layerSource } from '../../src-shared/domain/source.js';
import { applySymbolParams, ColourParam, currentSymbol, fmt, NUMERIC_FIELD, saveStyle, SymbolParams, VECTOR_LAYER } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

const Breaks = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/**
 * Terciles of `field` over the features that also have a number in `other`: those missing
 * either value are not classed (drawn in the null colour or hidden), so they must not move the breaks.
 */
async function terciles(
  gdal: GdalHandle,
  layer: Layer,
  field: string,
  other: string,
  param: string,
  signal: AbortSignal,
): Promise<[number, number, number, number]> {
  const r = await gdal.call(
    'style.classify',
    { source: layerSource(layer), field, method: 'quantile', classes: 3, alsoNumeric: [other] },
    { signal },
  );
  if (r.breaks.length !== 4) {
    throw new ToolFailure(
      'invalid_params',
      `${param}: '${field}' has too few distinct values for three classes among the features with both values.`,
      false,
      'Choose a field with more varied values.',
    );
  }
  return r.breaks as [number, number, number, number];
}

export const bivariate = defineTool({
  id: 'style.bivariate',
  version: '1.1.0',
  group: 'style',
  icon: 'palette',
  title: 'Bivariate choropleth',
  description:
    'Colours a vector layer by two numeric fields at once: each is split into three quantile classes (terciles, ' +
    'computed from the features with both values) and the 3×3 combinations take the standard bivariate palette (grey = low/low, red = ' +
    'high field_x, blue = high field_y, dark = high/high). Labels already set are kept. Returns the layer, both ' +
    'fields with their class breaks, and the palette.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a vector layer)'),
    field_x: z.string().min(1).describe('First numeric field (the red axis)'),
    field_y: z.string().min(1).describe('Second numeric field (the blue axis)'),
    null_colour: ColourParam.nullable().default(null).describe('Colour of features missing either value; null hides them'),
    breaks_x: Breaks.optional().describe('Four class edges of field_x; default: terciles from the data'),
    breaks_y: Breaks.optional().describe('Four class edges of field_y; default: terciles from the data'),
    ...SymbolParams,
  }),
  rules: { layer: VECTOR_LAYER, field_x: NUMERIC_FIELD, field_y: NUMERIC_FIELD },
  safety: 'write',
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Bivariate map of ${a.layer}: ${a.field_x} × ${a.field_y}`,
  async prepare(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    const bx = args.breaks_x ?? (await terciles(handles.gdal, layer, args.field_x, args.field_y, 'field_x', signal));
    const by = args.breaks_y ?? (await terciles(handles.gdal, layer, args.field_y, args.field_x, 'field_y', signal));
    return {
      args: { ...args, breaks_x: bx, breaks_y: by },
      preview: { layer: layer.name, [`${args.field_x} (x)`]: bx.map(fmt).join(' | '), [`${args.field_y} (y)`]: by.map(fmt).join(' | ') },
    };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const style: BivariateStyle = applySymbolParams(
      {
        type: 'bivariate' as const,
        fieldX: args.field_x,
        fieldY: args.field_y,
        breaksX: args.breaks_x!,
        breaksY: args.breaks_y!,
        palette: [...BIVARIATE_PALETTE],
        nullColour: args.null_colour,
        ...currentSymbol(layer),
      },
      args,
    );
    return {
      ...saveStyle(handles.project, layer, style),
      field_x: { name: args.field_x, breaks: style.breaksX },
      field_y: { name: args.field_y, breaks: style.breaksY },
      palette: style.palette,
    };
  },
});
