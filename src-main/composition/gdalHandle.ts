import { rm } from 'node:fs/promises';
import type { GdalHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { WorkerCrashedError, WorkerRequestError, type GisWorkerClient } from '../worker-host/GisWorkerClient.js';

/** The `gdal` handle: GDAL reached through the worker, its failures turned into tool errors. */
export function createGdalHandle(worker: GisWorkerClient): GdalHandle {
  return {
    async describe(source) {
      try {
        return await worker.request({ op: 'describe', source });
      } catch (err) {
        throw toToolFailure(err);
      }
    },
    async call(fn, args, opts = {}) {
      try {
        return await worker.request({ op: 'call', fn, args }, { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.progress ? { onProgress: opts.progress } : {}) });
      } catch (err) {
        if (opts.signal?.aborted) throw new ToolFailure('cancelled', `${fn} was stopped.`, false);
        throw toToolFailure(err);
      }
    },
    async runAlgorithm(req, { signal, progress }) {
      try {
        return await worker.request({ op: 'runAlgorithm', ...req }, { signal, onProgress: progress });
      } catch (err) {
        // A stopped or failed job leaves no half-written output behind.
        await rm(req.output.replace(/\|layername=.*$/, ''), { force: true }).catch(() => undefined);
        if (signal.aborted) throw new ToolFailure('cancelled', `${req.algorithm} was stopped; nothing was added to the project.`, false);
        throw toToolFailure(err);
      }
    },
  };
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
