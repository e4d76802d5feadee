import type { WorkerFunction } from './types.js';

/** Worker functions of the raster family, by name. */
export const RASTER_FUNCTIONS: Record<string, WorkerFunction> = {};
