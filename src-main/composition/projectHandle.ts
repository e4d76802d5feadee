import type { Emit } from '../../src-shared/bridge/contract.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import type { ProjectStore } from '../store/projectStore.js';

/** The `project` handle tools receive: the store's layers, announcing every change. */
export function createProjectHandle(store: ProjectStore, emit: Emit): ProjectHandle {
  const changed = () => emit('layers/changed', { layers: store.layers.list() });
  return {
    listLayers: () => store.layers.list(),
    getLayer: (idOrName) => store.layers.get(idOrName) ?? store.layers.list().find((l) => l.name === idOrName),
    addLayer: (input) => {
      const layer = store.layers.add({ ...input, kind: input.info.kind, style: input.style! });
      changed();
      return layer;
    },
    removeLayer: (id) => {
      store.layers.remove(id);
      changed();
    },
    updateLayer: (id, patch) => {
      const layer = store.layers.update(id, patch);
      changed();
      return layer;
    },
    moveLayer: (id, toOrder) => {
      const layers = store.layers.move(id, toOrder);
      changed();
      return layers;
    },
  };
}
