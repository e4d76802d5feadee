import { z } from 'zod';
import { PgConnectionId, PgSslMode } from '../../src-shared/domain/pgConnection.js';
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

/**
 * What the worker needs to open a saved PostGIS connection (issue 16): sent by main, never
 * part of a request, so no argument the model writes can carry a host or a password.
 * `origin` is what the source check reports (`postgres://host:port/database`).
 */
export const DatabaseAccess = z
  .object({
    host: z.string(),
    port: z.number().int(),
    database: z.string(),
    user: z.string(),
    password: z.string().nullable(),
    sslmode: PgSslMode,
    origin: z.string(),
  })
  .strict();
export type DatabaseAccess = z.infer<typeof DatabaseAccess>;

export const MainToWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), id: z.number().int(), request: WorkerRequest }),
  z.object({ type: z.literal('cancel'), id: z.number().int() }),
  /** The saved PostGIS connections, all of them, whenever they change (and first to a new worker). */
  z.object({ type: z.literal('databases'), databases: z.record(PgConnectionId, DatabaseAccess) }),
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
