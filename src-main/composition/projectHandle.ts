import type { Emit } from '../../src-shared/bridge/contract.js';
import { defaultRasterStyle, defaultVectorStyle } from '../../src-shared/style/styleModel.js';
import { freeLayerName, type ProjectHandle } from '../../src-shared/tools/handles.js';
import { outputsDirOf, type ProjectStore } from '../store/projectStore.js';
import { createEditingHandle } from './editingHandle.js';
import { nextRevision } from '../store/layerRevision.js';
import { freeOutputPath } from './freeOutputPath.js';
import { layersChangedPayload } from './projectHandlers.js';

/**
 * The `project` handle tools receive: the store's layers and annotations, announcing every
 * change (`layers/changed`, `annotations/changed`). Every layer a tool or a produced payload
 * adds comes through `addLayer`, which makes its name unique and gives it the default style of
 * its kind unless one is given.
 */
export function createProjectHandle(store: ProjectStore, emit: Emit): ProjectHandle {
  const changed = () => emit('layers/changed', layersChangedPayload(store));
  const annotationsChanged = () => emit('annotations/changed', { annotations: store.annotations.list() });
  const announced = <T>(value: T): T => {
    annotationsChanged();
    return value;
  };
  return {
    listLayers: () => store.layers.list(),
    getLayer: (idOrName) => store.layers.get(idOrName) ?? store.layers.list().find((l) => l.name === idOrName),
    addLayer: ({ name, style, ...input }) => {
      const before = store.layers.list();
      const layer = store.layers.add({
        ...input,
        name: freeLayerName(new Set(before.map((l) => l.name)), name),
        kind: input.info.kind,
        style: style ?? (input.info.kind === 'raster' ? defaultRasterStyle() : defaultVectorStyle(before.length)),
      });
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
    relocateLayer: (id, data) => {
      const before = store.layers.get(id);
      // A new data revision: the map fetches the layer again under a new URL.
      const layer = store.layers.setData(id, { ...data, editing: undefined, dataRevision: nextRevision(before?.dataRevision) });
      changed();
      return layer;
    },
    listAnnotations: () => store.annotations.list(),
    addAnnotation: (input) => announced(store.annotations.add(input)),
    moveAnnotation: (id, geometry) => announced(store.annotations.updateGeometry(id, geometry)),
    removeAnnotation: (id) => announced(store.annotations.remove(id)),
    editing: createEditingHandle(store, emit),
    outputPath: (baseName, extension) => freeOutputPath(outputsDirOf(store.info.path), baseName, extension, 'output'),
  };
}
