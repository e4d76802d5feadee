import { z } from 'zod';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
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
  safety: 'read',
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 10 * 60_000,
  summary: (a) => `Statistics of ${a.layer}${a.zones ? ` per polygon of ${a.zones}` : ''}`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    if (layer.kind !== 'raster') throw new ToolFailure('invalid_params', `'${layer.name}' is not a raster.`, false);
    const count = layer.info.bands.length;
    const bad = (args.bands ?? []).filter((b) => count > 0 && b > count);
    if (bad.length)
      throw new ToolFailure('invalid_params', `'${layer.name}' has ${count} band(s); there is no band ${bad.join(', ')}.`, false);
    if (args.zone_field && !args.zones) throw new ToolFailure('invalid_params', 'zone_field needs zones (a polygon layer).', false);
    if (args.zones) {
      const zones = findLayer(handles.project, args.zones);
      if (zones.kind !== 'vector') throw new ToolFailure('invalid_params', `zones: '${zones.name}' is not a polygon layer.`, false);
      const fields = zones.info.fields.map((f) => f.name);
      if (args.zone_field && fields.length && !fields.includes(args.zone_field)) {
        throw new ToolFailure(
          'invalid_params',
          `zone_field: no field '${args.zone_field}' in '${zones.name}'.`,
          false,
          `Fields: ${fields.join(', ')}`,
        );
      }
    }
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
