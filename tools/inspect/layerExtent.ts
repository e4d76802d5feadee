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
  description:
    "Gives a layer's extent in any CRS (default EPSG:4326). Returns extent as [xmin, ymin, xmax, ymax] in that " +
    'CRS (for EPSG:4326: [west, south, east, north] in degrees) and the layer’s own CRS; the box can be passed as ' +
    'the bbox of inspect_query_features.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name'),
    crs: z
      .string()
      .min(1)
      .default('EPSG:4326')
      .describe("Target CRS, e.g. 'EPSG:4326', 'EPSG:3857', 'EPSG:27700'; 'native' for the layer's own CRS"),
  }),
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
