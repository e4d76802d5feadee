import type { z } from 'zod';
import { CRS_CALLS } from './crsCalls.js';
import { DISPLAY_CALLS } from './displayCalls.js';
import { EDIT_CALLS } from './editCalls.js';
import { INSPECT_CALLS } from './inspectCalls.js';
import { LAYER_CALLS } from './layerCalls.js';
import { LINEAGE_CALLS } from './lineageCalls.js';
import { POSTGIS_CALLS } from './postgisCalls.js';
import { PROCESSING_CALLS } from './processingCalls.js';
import { QA_CALLS } from './qaCalls.js';
import { STYLE_CALLS } from './styleCalls.js';

/**
 * The GIS worker's contract: every function main may call, by name (`family.verb`), with its
 * parameter and result schemas — the worker's counterpart of the bridge contract. Main's
 * `GisWorkerClient.call` and the worker's registry (gis-worker/functions/) are both typed by
 * it, so a name without an implementation, or a caller passing the wrong shape, does not build.
 */
export const WORKER_CALLS = {
  ...LAYER_CALLS,
  ...INSPECT_CALLS,
  ...STYLE_CALLS,
  ...DISPLAY_CALLS,
  ...PROCESSING_CALLS,
  ...EDIT_CALLS,
  ...CRS_CALLS,
  ...POSTGIS_CALLS,
  ...QA_CALLS,
  ...LINEAGE_CALLS,
};

export type WorkerCallName = keyof typeof WORKER_CALLS;
/** What a caller passes (defaults may be left out). */
export type CallParams<F extends WorkerCallName> = z.input<(typeof WORKER_CALLS)[F]['params']>;
/** What the implementation receives: parsed, defaults filled. */
export type CallArgs<F extends WorkerCallName> = z.output<(typeof WORKER_CALLS)[F]['params']>;
/** What the implementation returns and the caller receives, checked on arrival. */
export type CallResult<F extends WorkerCallName> = z.output<(typeof WORKER_CALLS)[F]['result']>;

export function isWorkerCallName(name: string): name is WorkerCallName {
  return Object.hasOwn(WORKER_CALLS, name);
}

/** What the worker was doing during a call, in words for an error message. */
export function describeCall(fn: WorkerCallName, params: unknown): string {
  const spec = WORKER_CALLS[fn] as { doing?(p: unknown): string };
  try {
    return spec.doing ? spec.doing(params) : `running ${fn}`;
  } catch {
    return `running ${fn}`;
  }
}

/** `Invalid arguments for FN: path: problem; …`, as both ends of the contract say it. */
export function invalidArguments(fn: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return `Invalid arguments for ${fn}: ${issues.map((i) => `${i.path.map(String).join('.') || 'args'}: ${i.message}`).join('; ')}`;
}
