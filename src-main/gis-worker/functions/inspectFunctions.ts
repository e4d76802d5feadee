import type { WorkerFunction } from './types.js';

/** Worker functions of the inspect family, by name. */
export const INSPECT_FUNCTIONS: Record<string, WorkerFunction> = {};
