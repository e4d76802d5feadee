import { RASTER_RUNS } from './rasterRuns.js';
import type { AlgorithmRun } from './types.js';
import { VECTOR_RUNS } from './vectorRuns.js';

/** The worker half of every catalogue algorithm, by id (a test keeps it equal to the catalogue). */
export const ALGORITHM_RUNS: Record<string, AlgorithmRun> = { ...VECTOR_RUNS, ...RASTER_RUNS };
