import { z } from 'zod';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
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
  safety: 'read',
  exec: 'worker',
  handles: ['project', 'gdal'],
  summary: (a) => `Sample ${a.layer} at ${a.points.length} point(s)`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    if (layer.kind !== 'raster') {
      throw new ToolFailure(
        'invalid_params',
        `'${layer.name}' is not a raster.`,
        false,
        'Use inspect_query_features for vector layers and tables.',
      );
    }
    const count = layer.info.bands.length;
    const bad = (args.bands ?? []).filter((b) => count > 0 && b > count);
    if (bad.length)
      throw new ToolFailure('invalid_params', `'${layer.name}' has ${count} band(s); there is no band ${bad.join(', ')}.`, false);
    return { args };
  },
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
