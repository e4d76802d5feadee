import type { z } from 'zod';
import type { CallArgs, WORKER_CALLS, WorkerCallName } from '../../../src-shared/worker/workerCalls.js';
import type { ProgressFn } from '../progressThrottle.js';
import type { RasterCache } from '../rasterCache.js';

export interface FunctionContext {
  signal: AbortSignal;
  progress: ProgressFn;
  /** Open rasters kept between tiles. */
  rasters: RasterCache;
}

/**
 * The implementation of one function of the worker contract: receives its parameters parsed
 * (defaults filled) and returns a structured-cloneable value of the contract's result shape.
 * Throw BadInputError for problems with the person's data.
 */
export type WorkerFunction<F extends WorkerCallName> = (
  args: CallArgs<F>,
  ctx: FunctionContext,
) => Promise<z.input<(typeof WORKER_CALLS)[F]['result']>>;

/** The implementations of one family: exactly the contract's names that start with `PREFIX.`. */
export type WorkerFamily<Prefix extends string> = {
  [F in WorkerCallName as F extends `${Prefix}.${string}` ? F : never]: WorkerFunction<F>;
};
