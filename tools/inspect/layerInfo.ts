import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer, layerSummary } from '../layers/findLayer.js';

export const layerInfo = defineTool({
  id: 'inspect.layer_info',
  version: '1.0.0',
  group: 'inspect',
  icon: 'search',
  title: 'Layer info',
  description:
    'Describes one layer in detail. Returns its summary plus, for vectors, the attribute fields with their types, ' +
    'and for rasters the size in pixels and each band (data type, nodata, min, max); also the CRS name and the ' +
    'extent in the source CRS.',
  input: z.object({ layer: z.string().min(1).describe('Layer id or exact name') }),
  safety: 'read',
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Describe ${a.layer}`,
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const i = layer.info;
    return {
      ...layerSummary(layer),
      driver: i.driver,
      crs_name: i.crs?.name ?? null,
      extent_native: i.extent,
      fields: i.kind === 'vector' ? i.fields : undefined,
      size_px: i.width && i.height ? [i.width, i.height] : undefined,
      bands: i.kind === 'raster' ? i.bands : undefined,
      sublayers_in_file: i.sublayers,
    };
  },
});
