import { runResample } from './resample.js';
import type { AlgorithmRun } from './types.js';

/** Worker halves of the raster algorithms, by catalogue id. */
export const RASTER_RUNS: Record<string, AlgorithmRun> = {
  resample: runResample,
};
