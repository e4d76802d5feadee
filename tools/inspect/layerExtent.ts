import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
import { layerSource } from '../../src-shared/domain/source.js';

export const layerExtent = defineTool({
  id: 'inspect.extent',
  version: '1.0.0',
  group: 'inspect',
  icon: 'search',
  title: 'Layer extent',
  description: "Returns a layer's extent [xmin, ymin, xmax, ymax] in a CRS (default EPSG:4326, degrees) and its own CRS.",
  input: z.object({
    layer: z.string().min(1).describe('Layer id or name'),
    crs: z.string().min(1).default('EPSG:4326').describe("Target CRS, or 'native'"),
  }),
  rules: { layer: ['layer_exists'] },
  safety: 'read',
  exec: 'worker',
  handles: ['project', 'gdal'],
  summary: (a) => `Extent of ${a.layer} in ${a.crs}`,
  async execute(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    const target = args.crs.trim().toLowerCase() === 'native' ? null : args.crs;
    const answer = await handles.gdal.call(
      'inspect.extent',
      { source: layerSource(layer), crs: target },
      {
        signal,
        hint: "Give the CRS as an EPSG code such as 'EPSG:4326' or 'EPSG:3857'.",
      },
    );
    return { layer: layer.name, ...answer };
  },
});
