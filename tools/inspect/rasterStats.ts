import { z } from 'zod';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
import { RASTER_LAYER } from '../style/styleLayer.js';
import { layerSource } from '../../src-shared/domain/source.js';

export const rasterStats = defineTool({
  id: 'inspect.raster_stats',
  version: '1.0.0',
  group: 'inspect',
  icon: 'search',
  title: 'Raster statistics',
  description:
    'Exact band statistics over every pixel, for the whole raster or per polygon of zones (pixel centres ' +
    'inside). Returns bands[] or zones[] with count, nodata_count, sum, mean, min, max, std.',
  input: z.object({
    layer: z.string().min(1).describe('Raster layer id or name'),
    bands: z.array(z.number().int().min(1)).min(1).optional().describe('1-based bands (default all)'),
    zones: z.string().min(1).optional().describe('Polygon layer: statistics per polygon'),
    zone_field: z.string().min(1).optional().describe('Zones field naming each polygon (default fid)'),
    all_touched: z.boolean().default(false).describe('Count every touched pixel'),
  }),
  rules: {
    layer: RASTER_LAYER,
    bands: ['band_exists:layer'],
    zones: ['layer_exists', 'vector'],
    zone_field: ['field_exists:zones'],
  },
  safety: 'read',
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 10 * 60_000,
  summary: (a) => `Statistics of ${a.layer}${a.zones ? ` per polygon of ${a.zones}` : ''}`,
  async prepare(args) {
    if (args.zone_field && !args.zones) throw new ToolFailure('invalid_params', 'zone_field needs zones (a polygon layer).', false);
    return { args };
  },
  async execute(args, { handles, signal, progress }) {
    const layer = findLayer(handles.project, args.layer);
    const zones = args.zones ? findLayer(handles.project, args.zones) : null;
    const answer = await handles.gdal.call(
      'inspect.raster_stats',
      {
        source: layerSource(layer),
        bands: args.bands ?? null,
        zones: zones ? layerSource(zones) : null,
        zone_field: args.zone_field ?? null,
        all_touched: args.all_touched,
      },
      { signal, progress },
    );
    return { layer: layer.name, ...(zones ? { zones_layer: zones.name } : {}), ...answer };
  },
});
