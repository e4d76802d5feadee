import { runBuffer } from './buffer.js';
import { runReproject } from './reproject.js';
import type { AlgorithmRun } from './types.js';

/** Worker halves of the vector algorithms, by catalogue id. */
export const VECTOR_RUNS: Record<string, AlgorithmRun> = {
  reproject: runReproject,
  buffer: runBuffer,
};
