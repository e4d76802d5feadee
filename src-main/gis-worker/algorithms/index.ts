import { runBuffer } from './buffer.js';
import { runReproject } from './reproject.js';
import { runResample } from './resample.js';
import type { AlgorithmRun } from './types.js';

/** The worker half of every catalogue algorithm, by id (a test keeps it equal to the catalogue). */
export const ALGORITHM_RUNS: Record<string, AlgorithmRun> = {
  reproject: runReproject,
  buffer: runBuffer,
  resample: runResample,
};
