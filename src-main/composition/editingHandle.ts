import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Emit } from '../../src-shared/bridge/contract.js';
import { parseSource } from '../../src-shared/domain/source.js';
import type { EditingHandle } from '../../src-shared/tools/handles.js';
import { nextRevision } from '../store/layerRevision.js';
import { outputsDirOf, type ProjectStore } from '../store/projectStore.js';
import { freeOutputPath } from './freeOutputPath.js';
import { layersChangedPayload } from './projectHandlers.js';

/**
 * The `editing` part of the project handle: working copies live in `<outputs>/edits`, backups
 * in `<outputs>/backups`; a data change is recorded on the call's undo snapshot, whose id is
 * the transaction id in the copy's journal.
 */
export function createEditingHandle(store: ProjectStore, emit: Emit): EditingHandle {
  const changed = () => emit('layers/changed', layersChangedPayload(store));
  const dir = (name: string) => {
    const d = join(outputsDirOf(store.info.path), name);
    mkdirSync(d, { recursive: true });
    return d;
  };
  return {
    workingCopyPath: (layerName) => freeOutputPath(join(outputsDirOf(store.info.path), 'edits'), layerName, 'gpkg', 'layer'),
    backupDir: () => dir('backups'),
    startEditing: (layerId, copy) => {
      const layer = store.layers.get(layerId);
      if (!layer) throw new Error(`No layer with id ${layerId}`);
      const next = store.layers.setData(layerId, {
        source: parseSource(copy.source).path,
        sublayer: copy.sublayer,
        info: copy.info,
        editing: { originalSource: layer.source, originalSublayer: layer.sublayer, revision: nextRevision() },
      });
      changed();
      return next;
    },
    dataChanged: (layerId, info, changeId) => {
      const layer = store.layers.get(layerId);
      if (!layer?.editing) throw new Error(`Layer ${layerId} is not being edited`);
      store.snapshots.recordDataChange(changeId, { source: layer.source, table: layer.sublayer ?? layer.name });
      const next = store.layers.setData(layerId, {
        source: layer.source,
        sublayer: layer.sublayer,
        info,
        editing: { ...layer.editing, revision: nextRevision(layer.editing.revision) },
      });
      changed();
      return next;
    },
  };
}
