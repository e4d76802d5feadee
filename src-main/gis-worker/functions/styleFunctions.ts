import type { WorkerFunction } from './types.js';

/** Worker functions of the style family, by name. */
export const STYLE_FUNCTIONS: Record<string, WorkerFunction> = {};
