import { openSource } from '../openSource.js';
import { checkRaster } from '../qa/checkRaster.js';
import { checkVector } from '../qa/checkVector.js';
import type { WorkerFamily } from './types.js';

/** The qa family (src-shared/worker/qaCalls.ts): the data-reading half of a produced layer's QA report. */
export const QA_FUNCTIONS: WorkerFamily<'qa'> = {
  'qa.check_layer': async ({ source, maxFeatures, maxPixels, maxMs }, { signal }) => {
    const opened = await openSource(source);
    try {
      return opened.kind === 'vector'
        ? await checkVector(opened.layer, opened.path, { maxFeatures, maxMs, signal })
        : await checkRaster(opened.ds, opened.path, { maxPixels, maxMs, signal });
    } finally {
      opened.ds.close();
    }
  },
};
