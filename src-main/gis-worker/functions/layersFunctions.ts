import type { WorkerFunction } from './types.js';

/** Worker functions of the layers family, by name. */
export const LAYERS_FUNCTIONS: Record<string, WorkerFunction> = {};
