import type { AlgorithmSpec } from './algorithmSpec.js';
import { RASTER_ALGORITHMS } from './rasterAlgorithms.js';
import { VECTOR_ALGORITHMS } from './vectorAlgorithms.js';

export { buffer, reproject } from './vectorAlgorithms.js';
export { resample } from './rasterAlgorithms.js';

/** Every algorithm of the `processing_run` tool; ids are unique (checked by a test). */
export const ALGORITHMS: readonly AlgorithmSpec[] = [...VECTOR_ALGORITHMS, ...RASTER_ALGORITHMS];

export function findAlgorithm(id: string): AlgorithmSpec | undefined {
  return ALGORITHMS.find((a) => a.id === id);
}
