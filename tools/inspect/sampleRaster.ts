import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
import { RASTER_LAYER } from '../style/styleLayer.js';
import { layerSource } from '../../src-shared/domain/source.js';

export const sampleRaster = defineTool({
  id: 'inspect.sample_raster',
  version: '1.0.0',
  group: 'inspect',
  icon: 'search',
  title: 'Sample raster values',
  description:
    'Reads raster values at points. Returns per point its pixel [column, row] and each band value; null where ' +
    'nodata, pixel null outside the raster.',
  input: z.object({
    layer: z.string().min(1).describe('Raster layer id or name'),
    points: z
      .array(z.tuple([z.number(), z.number()]))
      .min(1)
      .max(1000)
      .describe('[x, y] points in crs ([lon, lat] for EPSG:4326)'),
    crs: z.string().min(1).default('EPSG:4326').describe('CRS of the points'),
    bands: z.array(z.number().int().min(1)).min(1).optional().describe('1-based bands (default all)'),
  }),
  rules: { layer: RASTER_LAYER, bands: ['band_exists:layer'] },
  safety: 'read',
  exec: 'worker',
  handles: ['project', 'gdal'],
  summary: (a) => `Sample ${a.layer} at ${a.points.length} point(s)`,
  async execute(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    const answer = await handles.gdal.call(
      'inspect.sample_raster',
      { source: layerSource(layer), points: args.points, crs: args.crs, bands: args.bands ?? null },
      { signal, hint: "Give the points' CRS as an EPSG code, e.g. 'EPSG:4326' for [longitude, latitude]." },
    );
    return { layer: layer.name, ...answer };
  },
});
