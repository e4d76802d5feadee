import type { LayerInfo } from '../../src-shared/domain/layer.js';
import { formatSource, layerSource } from '../../src-shared/domain/source.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { nextRevision } from '../store/layerRevision.js';
import type { ProjectStore } from '../store/projectStore.js';

/** Reverts the journalled transactions `txs` of one working copy (the GIS worker's `edit.undo`); the copy's info after. */
export type UndoData = (source: string, txs: number[]) => Promise<LayerInfo>;

/**
 * Undo and Revert turn (issue #14): first the data — every working copy edited by snapshot `id`
 * or a later one has those transactions reverted from its journal, newest first — then the
 * layer list and annotations as they were, and every edited layer gets a new data revision so
 * the map and the table read the data again. A working copy that is gone from disk is skipped
 * with a note (nothing is left to revert there); any other failure stops before the layer list
 * changes, and trying again continues where it stopped, since reverted transactions leave the
 * journal.
 */
export async function restoreSnapshot(store: ProjectStore, undoData: UndoData, id: number): Promise<string[]> {
  const byCopy = new Map<string, number[]>();
  for (const snap of store.snapshots.dataChangesFrom(id)) {
    for (const c of snap.changes) {
      const key = formatSource({ path: c.source, sublayer: c.table });
      byCopy.set(key, [...(byCopy.get(key) ?? []), snap.id]);
    }
  }
  const notes: string[] = [];
  const infos = new Map<string, LayerInfo>();
  for (const [source, txs] of byCopy) {
    try {
      infos.set(source, await undoData(source, txs));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/does not exist|No such file|not found/i.test(message)) {
        notes.push(`The working copy ${source} is gone; its edits could not be reverted.`);
        continue;
      }
      throw new ToolFailure('handler_error', `The edits in ${source} could not be undone: ${message}`, true);
    }
  }
  store.snapshots.restore(id);
  // The snapshot's info is the data's as it was; a reverted copy's own (field order after a
  // restored column, counts) is what the file now says.
  for (const layer of store.layers.list()) {
    if (layer.editing)
      store.layers.setData(layer.id, {
        ...layer,
        info: infos.get(layerSource(layer)) ?? layer.info,
        editing: { ...layer.editing, revision: nextRevision(layer.editing.revision) },
      });
  }
  return notes;
}
