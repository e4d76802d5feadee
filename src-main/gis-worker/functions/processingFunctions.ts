import { ALGORITHM_RUNS } from '../algorithms/index.js';
import { describeSource } from '../describeSource.js';
import { BadInputError } from '../errors.js';
import type { WorkerFamily } from './types.js';

/** The processing family (src-shared/worker/processingCalls.ts). */
export const PROCESSING_FUNCTIONS: WorkerFamily<'processing'> = {
  'processing.run': async (a, ctx) => {
    const run = ALGORITHM_RUNS[a.algorithm];
    if (!run) throw new BadInputError(`Unknown algorithm '${a.algorithm}'`);
    const result = await run(a.params, a.output, ctx);
    // Described here, while the file is fresh: main adds the layer without opening it again.
    return { ...result, info: await describeSource(result.output, ctx.signal) };
  },
};
