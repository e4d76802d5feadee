import { invalidArguments, WORKER_CALLS, type CallArgs, type WorkerCallName } from '../../src-shared/worker/workerCalls.js';
import { BadInputError } from './errors.js';
import { WORKER_FUNCTIONS } from './functions/index.js';
import type { FunctionContext, WorkerFunction } from './functions/types.js';
import type { WorkerRequest } from './protocol.js';

export type RequestContext = FunctionContext;

/**
 * Runs one request: its parameters are parsed with the contract's schema (main trusts the
 * model's values no more than we do), then the implementation runs. Throws BadInputError /
 * CancelledError / anything else (→ 'internal').
 */
export async function handleRequest(req: WorkerRequest, ctx: RequestContext): Promise<unknown> {
  const fn = req.fn as WorkerCallName;
  const parsed = WORKER_CALLS[fn].params.safeParse(req.args);
  if (!parsed.success) throw new BadInputError(invalidArguments(fn, parsed.error.issues));
  const run = WORKER_FUNCTIONS[fn] as WorkerFunction<WorkerCallName>;
  return run(parsed.data as CallArgs<WorkerCallName>, ctx);
}
