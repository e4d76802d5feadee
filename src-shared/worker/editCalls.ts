import { z } from 'zod';
import { ChangeSample } from '../domain/chat.js';
import { LayerInfo } from '../domain/layer.js';
import { EditOp } from '../edit/editOps.js';
import { workerCall } from './callSpec.js';
import { Source } from './layerCalls.js';

/** Editing a layer through its working copy (issue #14; gis-worker/edit/). */
export const EDIT_CALLS = {
  /** Copies one vector layer into a new GeoPackage (FIDs kept): the editable working copy. */
  'edit.create_copy': workerCall({
    params: z.object({ source: Source, output: z.string().min(1) }),
    result: z.object({ source: z.string(), table: z.string(), info: LayerInfo }),
    doing: (p) => `copying ${p.source} for editing`,
    writes: (p) => p.output,
  }),
  /** What an op would do, read only: how many rows, a few of them before and after, warnings. */
  'edit.preview': workerCall({
    params: z.object({ source: Source, op: EditOp }),
    result: z.object({ sample: ChangeSample, notes: z.array(z.string()) }),
    doing: (p) => `previewing an edit of ${p.source}`,
  }),
  /** Applies an op to a working copy, journalling its inverse under `tx` in the same transaction. */
  'edit.apply': workerCall({
    params: z.object({ source: Source, tx: z.number().int().min(1), op: EditOp }),
    result: z.object({ changed: z.number().int(), fids: z.array(z.number().int()), info: LayerInfo, notes: z.array(z.string()) }),
    doing: (p) => `editing ${p.source}`,
  }),
  /** Reverts the journalled transactions `txs` of a working copy (newest first); already undone ones are skipped. */
  'edit.undo': workerCall({
    params: z.object({ source: Source, txs: z.array(z.number().int().min(1)).min(1) }),
    result: z.object({ statements: z.number().int(), info: LayerInfo }),
    doing: (p) => `undoing edits of ${p.source}`,
  }),
  /** Replaces the original layer's data by the working copy's, after copying the original's files to `backupDir`. */
  'edit.write_back': workerCall({
    params: z.object({ copy: Source, original: Source, backupDir: z.string().min(1) }),
    result: z.object({ backup: z.array(z.string()), featureCount: z.number().int(), info: LayerInfo }),
    doing: (p) => `writing edits back to ${p.original}`,
  }),
};
