import { rm } from 'node:fs/promises';
import { parseSource } from '../../src-shared/domain/source.js';
import type { GdalHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { WORKER_CALLS, type WorkerCallName } from '../../src-shared/worker/workerCalls.js';
import type { WorkerCallSpec } from '../../src-shared/worker/callSpec.js';
import { WorkerCrashedError, WorkerRequestError, type GisWorkerClient } from '../worker-host/GisWorkerClient.js';

/** The `gdal` handle: the worker contract as tools see it, failures turned into tool errors. */
export function createGdalHandle(worker: GisWorkerClient): GdalHandle {
  return {
    async call(fn, args, opts = {}) {
      try {
        return await worker.call(fn, args, {
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.progress ? { onProgress: opts.progress } : {}),
        });
      } catch (err) {
        // A stopped or failed call leaves no half-written output behind.
        const written = writtenBy(fn, args);
        if (written) await rm(parseSource(written).path, { force: true }).catch(() => undefined);
        if (opts.signal?.aborted)
          throw new ToolFailure('cancelled', `${fn} was stopped${written ? '; nothing was added to the project' : ''}.`, false);
        const failure = toToolFailure(err);
        throw opts.hint && failure.code === 'handler_error'
          ? new ToolFailure(failure.code, failure.message, failure.retryable, opts.hint)
          : failure;
      }
    },
  };
}

/** The file a call of the contract writes (its `writes` face), or null. */
function writtenBy(fn: WorkerCallName, args: unknown): string | null {
  const spec = WORKER_CALLS[fn] as WorkerCallSpec;
  const parsed = spec.writes ? spec.params.safeParse(args) : null;
  return parsed?.success ? spec.writes!(parsed.data) : null;
}

export function toToolFailure(err: unknown): ToolFailure {
  if (err instanceof WorkerRequestError) {
    return err.code === 'bad_input'
      ? new ToolFailure('handler_error', err.message, false, 'Check the path and that the file is a GIS format GDAL reads.')
      : new ToolFailure('handler_error', err.message, false);
  }
  if (err instanceof WorkerCrashedError) return new ToolFailure('handler_error', err.message, true);
  return new ToolFailure('handler_error', err instanceof Error ? err.message : String(err), false);
}
