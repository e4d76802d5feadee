import { describeSource } from '../describeSource.js';
import { describeFile } from '../inspect/describePath.js';
import type { WorkerFamily } from './types.js';

/** The layers family (src-shared/worker/layerCalls.ts). */
export const LAYERS_FUNCTIONS: WorkerFamily<'layers'> = {
  'layers.describe': (a, ctx) => describeSource(a.source, ctx.signal),
  'layers.list_sublayers': (a) => describeFile(a.path, { withFields: false, exactCounts: true }),
};
