import type { ProgressFn } from '../progressThrottle.js';

export interface FunctionContext {
  signal: AbortSignal;
  progress: ProgressFn;
}

/**
 * A named worker function: validates its own `args` (with zod) and returns a structured-
 * cloneable value. Throw BadInputError for problems with the person's data.
 */
export type WorkerFunction = (args: unknown, ctx: FunctionContext) => Promise<unknown>;
