import { z } from 'zod';
import { isWorkerCallName } from '../../src-shared/worker/workerCalls.js';

export type { AlgorithmOutput } from '../../src-shared/worker/processingCalls.js';

/**
 * The worker protocol: structured messages between main and the GIS worker process, the only
 * process that loads GDAL. A request names one function of the worker contract
 * (src-shared/worker/workerCalls.ts) with its parameters; both ends check those and main checks
 * the result against the contract, because a worker that half-crashed may send anything.
 */
export const WorkerRequest = z.object({
  fn: z.string().refine(isWorkerCallName, { error: (issue) => `Unknown worker function '${String(issue.input)}'` }),
  args: z.unknown(),
});
export type WorkerRequest = z.infer<typeof WorkerRequest>;

/** `bad_input`: the source is missing, unreadable or not GIS data; `internal`: a bug or GDAL failure. */
export const WorkerErrorCode = z.enum(['bad_input', 'internal']);
export type WorkerErrorCode = z.infer<typeof WorkerErrorCode>;

export const MainToWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), id: z.number().int(), request: WorkerRequest }),
  z.object({ type: z.literal('cancel'), id: z.number().int() }),
]);
export type MainToWorker = z.infer<typeof MainToWorker>;

export const WorkerToMain = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), gdalVersion: z.string() }),
  z.object({ type: z.literal('progress'), id: z.number().int(), fraction: z.number(), message: z.string() }),
  z.object({ type: z.literal('result'), id: z.number().int(), value: z.unknown() }),
  z.object({
    type: z.literal('error'),
    id: z.number().int(),
    code: WorkerErrorCode,
    message: z.string(),
  }),
]);
export type WorkerToMain = z.infer<typeof WorkerToMain>;
