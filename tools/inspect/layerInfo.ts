import { z } from 'zod';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer, layerSummary } from '../layers/findLayer.js';
import { layerSource } from '../../src-shared/domain/source.js';
import { layerLineage } from './layerLineage.js';

export const layerInfo = defineTool({
  id: 'inspect.layer_info',
  version: '1.2.0',
  group: 'inspect',
  icon: 'search',
  title: 'Layer info',
  description:
    'Describes one layer, read fresh from its file. Returns the CRS (EPSG, geographic or not, units), extent, ' +
    'fields with types and feature count, or raster size, pixel size and bands (type, nodata, min, max, mean); for outputs, their lineage.',
  input: z.object({ layer: z.string().min(1).describe('Layer id or name') }),
  rules: { layer: ['layer_exists'] },
  safety: 'read',
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 120_000,
  summary: (a) => `Describe ${a.layer}`,
  async execute(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    try {
      const details = await handles.gdal.call('inspect.layer_details', { source: layerSource(layer) }, { signal });
      const lineage = await layerLineage(handles.gdal, layer, signal);
      return { ...layerSummary(layer), ...details, ...(lineage ? { lineage } : {}) };
    } catch (err) {
      if (!(err instanceof ToolFailure) || err.code === 'cancelled') throw err;
      // The file moved or broke since it was loaded: say so, and give what is known.
      const i = layer.info;
      return {
        ...layerSummary(layer),
        warning: `The file could not be read now (${err.message}); this is what was known when it was loaded.`,
        driver: i.driver,
        crs: i.crs,
        extent_native: i.extent,
        fields: i.kind === 'raster' ? undefined : i.fields,
        size_px: i.width && i.height ? [i.width, i.height] : undefined,
        bands: i.kind === 'raster' ? i.bands : undefined,
      };
    }
  },
});
