import { DISPLAY_FUNCTIONS } from './displayFunctions.js';
import { INSPECT_FUNCTIONS } from './inspectFunctions.js';
import { LAYERS_FUNCTIONS } from './layersFunctions.js';
import { RASTER_FUNCTIONS } from './rasterFunctions.js';
import { STYLE_FUNCTIONS } from './styleFunctions.js';
import type { WorkerFunction } from './types.js';

/** Every named worker function; families keep their own files so they can grow apart. */
export const WORKER_FUNCTIONS: Record<string, WorkerFunction> = {
  ...INSPECT_FUNCTIONS,
  ...LAYERS_FUNCTIONS,
  ...STYLE_FUNCTIONS,
  ...RASTER_FUNCTIONS,
  ...DISPLAY_FUNCTIONS,
};
