import type { WorkerErrorCode } from './protocol.js';

/**
 * The person's data is at fault (missing, unreadable, not GIS, damaged). The message is shown
 * to a GIS user and to the model, so it names the file and says what is wrong with it.
 */
export class BadInputError extends Error {
  override readonly name = 'BadInputError';
}

/** The request was cancelled by main; the worker stops at its next checkpoint. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor() {
    super('Cancelled');
  }
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/**
 * GDAL's own words, trimmed of the noise it adds ("ERROR 1: ", and the file's path, which
 * our message already names).
 */
export function gdalReason(err: unknown, path?: string): string {
  let reason = (err instanceof Error ? err.message : String(err)).replace(/^(ERROR|Warning) \d+:\s*/i, '').trim();
  if (path) reason = reason.split(`${path}, `).join('').split(`${path}: `).join('');
  return reason;
}

export function toWorkerError(err: unknown): { code: WorkerErrorCode; message: string } {
  if (err instanceof BadInputError) return { code: 'bad_input', message: err.message };
  if (err instanceof CancelledError) return { code: 'internal', message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message: message || 'Unknown error in the GIS worker' };
}
