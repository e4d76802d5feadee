import type { WorkerCallName } from '../../../src-shared/worker/workerCalls.js';
import { CRS_FUNCTIONS } from './crsFunctions.js';
import { DISPLAY_FUNCTIONS, TABLE_FUNCTIONS } from './displayFunctions.js';
import { EDIT_FUNCTIONS } from './editFunctions.js';
import { INSPECT_FUNCTIONS } from './inspectFunctions.js';
import { LAYERS_FUNCTIONS } from './layersFunctions.js';
import { LINEAGE_FUNCTIONS } from './lineageFunctions.js';
import { POSTGIS_FUNCTIONS } from './postgisFunctions.js';
import { PROCESSING_FUNCTIONS } from './processingFunctions.js';
import { QA_FUNCTIONS } from './qaFunctions.js';
import { STYLE_FUNCTIONS } from './styleFunctions.js';
import type { WorkerFunction } from './types.js';

/**
 * Every function of the worker contract, by name; families keep their own files so they can
 * grow apart. The type makes a contract name without an implementation a build error.
 */
export const WORKER_FUNCTIONS: { [F in WorkerCallName]: WorkerFunction<F> } = {
  ...LAYERS_FUNCTIONS,
  ...INSPECT_FUNCTIONS,
  ...STYLE_FUNCTIONS,
  ...DISPLAY_FUNCTIONS,
  ...TABLE_FUNCTIONS,
  ...PROCESSING_FUNCTIONS,
  ...EDIT_FUNCTIONS,
  ...CRS_FUNCTIONS,
  ...POSTGIS_FUNCTIONS,
  ...QA_FUNCTIONS,
  ...LINEAGE_FUNCTIONS,
};
