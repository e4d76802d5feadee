import { describeSource } from '../describeSource.js';
import { applyEdit, undoEdits } from '../edit/applyEdit.js';
import { previewEdit } from '../edit/previewEdit.js';
import { createWorkingCopy, openWorkingCopy } from '../edit/workingCopy.js';
import { writeBack } from '../edit/writeBack.js';
import type { WorkerFamily } from './types.js';

/** The edit family (src-shared/worker/editCalls.ts). */
export const EDIT_FUNCTIONS: WorkerFamily<'edit'> = {
  'edit.create_copy': (a, ctx) => createWorkingCopy(a.source, a.output, ctx.progress),
  'edit.preview': (a) => previewEdit(a.source, a.op),
  'edit.apply': async (a) => {
    const { ds, table } = openWorkingCopy(a.source);
    let applied;
    try {
      applied = applyEdit(ds, table, a.op, a.tx);
    } finally {
      ds.close();
    }
    return { ...applied, info: await describeSource(a.source) };
  },
  'edit.undo': async (a) => {
    const { ds, table } = openWorkingCopy(a.source);
    let statements;
    try {
      statements = undoEdits(ds, table, a.txs);
    } finally {
      ds.close();
    }
    return { statements, info: await describeSource(a.source) };
  },
  'edit.write_back': (a) => writeBack(a.copy, a.original, a.backupDir),
};
