import type { z } from 'zod';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { GdalHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/** `path` or `path|layername=NAME`: how the worker names a layer's data. */
export function sourceOf(layer: Layer): string {
  return layer.sublayer ? `${layer.source}|layername=${layer.sublayer}` : layer.source;
}

/**
 * Calls a worker function and checks its answer with `schema` (a half-crashed worker may send
 * anything). The worker's bad-input messages already say what is wrong; `hint` replaces the
 * handle's generic "check the path" advice with one that fits the tool.
 */
export async function callWorker<S extends z.ZodType>(
  gdal: GdalHandle,
  fn: string,
  args: unknown,
  schema: S,
  opts: { signal?: AbortSignal; progress?(fraction: number, message: string): void; hint?: string } = {},
): Promise<z.output<S>> {
  let value: unknown;
  try {
    value = await gdal.call(fn, args, { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.progress ? { progress: opts.progress } : {}) });
  } catch (err) {
    if (err instanceof ToolFailure && err.code === 'handler_error' && opts.hint) throw new ToolFailure(err.code, err.message, err.retryable, opts.hint);
    throw err;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ToolFailure('handler_error', `The GIS worker sent an unexpected answer for ${fn}.`, true);
  return parsed.data;
}
