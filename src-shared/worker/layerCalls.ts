import { z } from 'zod';
import { LayerInfo } from '../domain/layer.js';
import { workerCall } from './callSpec.js';

/** `path` or `path|layername=NAME`. */
export const Source = z.string().min(1).describe('`path` or `path|layername=NAME`');

/** Opening a source and listing what it holds. */
export const LAYER_CALLS = {
  /** Opens a source and describes it: what a layer of the project records. */
  'layers.describe': workerCall({
    params: z.object({ source: Source }),
    result: LayerInfo,
    doing: (p) => `reading ${p.source}`,
  }),
  /** The layers of a file (vector, table, GeoPackage raster tables) with counts: what to load. */
  'layers.list_sublayers': workerCall({
    params: z.object({ path: z.string().min(1) }),
    result: z.object({
      layers: z.array(
        z.object({
          name: z.string(),
          kind: z.enum(['vector', 'table', 'raster']),
          geometry_type: z.string().nullable(),
          feature_count: z.number().nullable(),
        }),
      ),
    }),
    doing: (p) => `listing the layers of ${p.path}`,
  }),
};
