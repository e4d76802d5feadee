import { z } from 'zod';
import { RampName } from '../../src-shared/style/colourRamps.js';
import type { PseudocolorRasterStyle } from '../../src-shared/style/styleModel.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { cumulativeCut } from './rasterCut.js';
import { fmt, RASTER_LAYER, saveStyle } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

export const rasterPseudocolor = defineTool({
  id: 'style.raster_pseudocolor',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Raster pseudocolour',
  description:
    'Colours one band of a raster through a colour ramp (viridis, terrain, spectral, greys, blues, magma, plasma, ' +
    'reds, greens, ylorrd, rdylgn, rdbu, …) between min and max; values beyond are clamped, nodata is transparent. ' +
    'Without min/max the 2–98 % cumulative cut of the band is computed by GDAL from its histogram. Returns the layer, ' +
    'band, ramp and the min/max used.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a raster)'),
    band: z.number().int().min(1).default(1).describe('Band number, from 1'),
    ramp: RampName.default('viridis').describe('Colour ramp, low to high values'),
    invert: z.boolean().default(false).describe('Reverse the ramp'),
    min: z.number().optional().describe('Value at the low end of the ramp; default: the 2 % cumulative cut'),
    max: z.number().optional().describe('Value at the high end of the ramp; default: the 98 % cumulative cut'),
  }),
  rules: { layer: RASTER_LAYER, band: ['band_exists:layer'] },
  safety: 'write',
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Colour band ${a.band} of ${a.layer} with ${a.ramp}`,
  async prepare(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    let { min, max } = args;
    let how = 'given';
    if (min === undefined || max === undefined) {
      const [cut] = await cumulativeCut(handles.gdal, layer, [args.band], signal);
      min ??= cut!.min;
      max ??= cut!.max;
      how = '2–98 % cumulative cut';
    }
    if (!(max > min)) throw new ToolFailure('invalid_params', `max (${max}) must be greater than min (${min}).`, true);
    return {
      args: { ...args, min, max },
      preview: { layer: layer.name, band: args.band, ramp: args.ramp, min: fmt(min), max: fmt(max), range: how },
    };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const style: PseudocolorRasterStyle = {
      type: 'pseudocolor',
      band: args.band,
      ramp: args.ramp,
      invert: args.invert,
      min: args.min ?? null,
      max: args.max ?? null,
    };
    return { ...saveStyle(handles.project, layer, style), band: style.band, ramp: style.ramp, min: style.min, max: style.max };
  },
});
