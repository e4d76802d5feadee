import { readLineage, writeLineage } from '../lineage/lineageStore.js';
import type { WorkerFamily } from './types.js';

/** The lineage family (src-shared/worker/lineageCalls.ts). */
export const LINEAGE_FUNCTIONS: WorkerFamily<'lineage'> = {
  'lineage.write': (a) => writeLineage(a),
  'lineage.read': (a) => readLineage(a.source),
};
