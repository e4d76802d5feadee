import { z } from 'zod';
import type { GreyRasterStyle } from '../../src-shared/style/styleModel.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { RASTER_LAYER, saveStyle } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

export const rasterGrey = defineTool({
  id: 'style.raster_grey',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Raster greyscale',
  description:
    'Shows one band of a raster in grey, stretched linearly from min (black) to max (white); without min/max the ' +
    'band’s own minimum and maximum are used (the default look of a new raster). Nodata is transparent. Returns the ' +
    'layer, band and range.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a raster)'),
    band: z.number().int().min(1).default(1).describe('Band number, from 1'),
    min: z.number().optional().describe('Value drawn black; default: the band minimum'),
    max: z.number().optional().describe('Value drawn white; default: the band maximum'),
  }),
  rules: { layer: RASTER_LAYER, band: ['band_exists:layer'] },
  safety: 'write',
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Grey band ${a.band} of ${a.layer}`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    if (args.min !== undefined && args.max !== undefined && !(args.max > args.min))
      throw new ToolFailure('invalid_params', `max (${args.max}) must be greater than min (${args.min}).`, true);
    return { args, preview: { layer: layer.name, band: args.band, min: args.min ?? 'band minimum', max: args.max ?? 'band maximum' } };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const style: GreyRasterStyle = { type: 'grey', band: args.band, min: args.min ?? null, max: args.max ?? null };
    return { ...saveStyle(handles.project, layer, style), band: style.band, min: style.min, max: style.max };
  },
});
