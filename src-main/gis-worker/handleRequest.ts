import { ALGORITHM_RUNS } from './algorithms/index.js';
import { BadInputError } from './errors.js';
import { WORKER_FUNCTIONS } from './functions/index.js';
import type { WorkerRequest } from './protocol.js';
import { describeSource } from './describeSource.js';
import type { RasterCache } from './rasterCache.js';
import { renderRasterTile } from './renderRasterTile.js';
import type { ProgressFn } from './progressThrottle.js';
import { vectorToGeoJSON } from './vectorToGeoJSON.js';

export interface RequestContext {
  signal: AbortSignal;
  progress: ProgressFn;
  rasters: RasterCache;
}

/** Runs one request; throws BadInputError / CancelledError / anything else (→ 'internal'). */
export async function handleRequest(req: WorkerRequest, ctx: RequestContext): Promise<unknown> {
  switch (req.op) {
    case 'describe':
      return describeSource(req.source, ctx.signal);
    case 'vectorGeoJSON':
      return vectorToGeoJSON(req.source, ctx.signal, ctx.progress);
    case 'rasterTile': {
      const png = await renderRasterTile(ctx.rasters, req, ctx.signal);
      // A plain Uint8Array view: it structured-clones the same under fork and utilityProcess.
      return png ? new Uint8Array(png.buffer, png.byteOffset, png.byteLength) : null;
    }
    case 'call': {
      const fn = WORKER_FUNCTIONS[req.fn];
      if (!fn) throw new Error(`Unknown worker function '${req.fn}'`);
      return fn(req.args, { signal: ctx.signal, progress: ctx.progress });
    }
    case 'runAlgorithm': {
      const run = ALGORITHM_RUNS[req.algorithm];
      if (!run) throw new BadInputError(`Unknown algorithm '${req.algorithm}'`);
      return run(req.params, req.output, { signal: ctx.signal, progress: ctx.progress });
    }
  }
}
