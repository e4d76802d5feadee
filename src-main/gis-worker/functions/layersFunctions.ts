import { z } from 'zod';
import { BadInputError } from '../errors.js';
import { describeFile } from '../inspect/describePath.js';
import type { WorkerFunction } from './types.js';

const SublayersArgs = z.object({ path: z.string().min(1) });

/** Worker functions of the layers family, by name. */
export const LAYERS_FUNCTIONS: Record<string, WorkerFunction> = {
  /** The layers of a file (vector, table, GeoPackage raster tables) with counts: what to load. */
  'layers.list_sublayers': async (args) => {
    const r = SublayersArgs.safeParse(args);
    if (!r.success) throw new BadInputError('layers.list_sublayers needs { path }');
    return describeFile(r.data.path, { withFields: false, exactCounts: true });
  },
};
