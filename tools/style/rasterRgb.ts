import { z } from 'zod';
import type { RgbRasterStyle } from '../../src-shared/style/styleModel.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { cumulativeCut } from './rasterCut.js';
import { fmt, RASTER_LAYER, saveStyle } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

const Range = z.tuple([z.number(), z.number()]);

export const rasterRgb = defineTool({
  id: 'style.raster_rgb',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Raster RGB composite',
  description:
    'Shows three bands of a multi-band raster as red, green and blue (e.g. 3,2,1 true colour or 4,3,2 false colour ' +
    'for Landsat), each stretched on its own range: the 2–98 % cumulative cut computed by GDAL (default), the band ' +
    'min/max, or ranges given. Nodata is transparent. Returns the layer and each channel’s band and range.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a multi-band raster)'),
    red: z.number().int().min(1).default(1).describe('Band shown as red'),
    green: z.number().int().min(1).default(2).describe('Band shown as green'),
    blue: z.number().int().min(1).default(3).describe('Band shown as blue'),
    stretch: z
      .enum(['cumulative_cut', 'min_max', 'given'])
      .default('cumulative_cut')
      .describe('How each band is stretched: the 2–98 % cut, the band min/max, or the ranges given'),
    ranges: z
      .tuple([Range, Range, Range])
      .optional()
      .describe('[min, max] for red, green, blue; required for stretch given, otherwise computed'),
  }),
  rules: { layer: RASTER_LAYER, red: ['band_exists:layer'], green: ['band_exists:layer'], blue: ['band_exists:layer'] },
  safety: 'write',
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `RGB ${a.red},${a.green},${a.blue} of ${a.layer}`,
  async prepare(args, { handles, signal }) {
    const bands = [args.red, args.green, args.blue] as const;
    const layer = findLayer(handles.project, args.layer);
    let ranges = args.ranges;
    if (args.stretch === 'given') {
      if (!ranges)
        throw new ToolFailure(
          'invalid_params',
          'ranges: stretch given needs [[min, max], [min, max], [min, max]].',
          true,
          'Or use stretch cumulative_cut.',
        );
    } else if (args.stretch === 'min_max') {
      ranges = bands.map((b) => {
        const info = layer.info.bands.find((x) => x.index === b);
        if (info?.min == null || info.max == null)
          throw new ToolFailure(
            'invalid_params',
            `Band ${b} of '${layer.name}' has no known min/max.`,
            true,
            'Use stretch cumulative_cut.',
          );
        return [info.min, info.max] as [number, number];
      }) as unknown as typeof ranges;
    } else {
      const cuts = await cumulativeCut(handles.gdal, layer, bands, signal);
      ranges = cuts.map((c) => [c.min, c.max]) as unknown as typeof ranges;
    }
    const r = ranges!;
    return {
      args: { ...args, ranges: r },
      preview: {
        layer: layer.name,
        red: `band ${args.red}: ${fmt(r[0][0])}–${fmt(r[0][1])}`,
        green: `band ${args.green}: ${fmt(r[1][0])}–${fmt(r[1][1])}`,
        blue: `band ${args.blue}: ${fmt(r[2][0])}–${fmt(r[2][1])}`,
        stretch: args.stretch,
      },
    };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const r = args.ranges;
    const ch = (band: number, i: number) => ({ band, min: r ? r[i]![0] : null, max: r ? r[i]![1] : null });
    const style: RgbRasterStyle = { type: 'rgb', red: ch(args.red, 0), green: ch(args.green, 1), blue: ch(args.blue, 2) };
    return { ...saveStyle(handles.project, layer, style), red: style.red, green: style.green, blue: style.blue };
  },
});
