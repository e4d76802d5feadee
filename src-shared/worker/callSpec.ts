import type { z } from 'zod';

/**
 * One named function of the GIS worker: its parameters and result as zod schemas, shared by
 * both ends. Main checks the parameters before it sends and the result when it arrives (a
 * half-crashed worker may send anything); the worker parses the parameters again, since it
 * trusts main's values no more than main trusts the model's.
 */
export interface WorkerCallSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  params: P;
  result: R;
  /** What the worker was doing, for "the GIS worker stopped while …"; default: running NAME. */
  doing?(params: z.output<P>): string;
  /**
   * The file (`path` or `path|layername=NAME`) the call writes: main removes it when the call
   * fails or is stopped, so no half-written output stays behind.
   */
  writes?(params: z.output<P>): string;
}

/** Keeps each spec's own parameter and result types (an annotation would widen them). */
export function workerCall<P extends z.ZodType, R extends z.ZodType>(spec: WorkerCallSpec<P, R>): WorkerCallSpec<P, R> {
  return spec;
}
