import { useEffect } from 'react';
import { attributeTableStore } from './attributeTableStore.js';
import { identifyStore } from './identifyStore.js';
import { selectionStore, pruneSelection } from './selectionStore.js';
import { stylePanelStore } from './stylePanelStore.js';
import { selectLayers } from './slices/layersSlice.js';
import { useAppStore } from './useAppStore.js';

/**
 * When a layer leaves the project (removed, undone, reverted), its selection, its attribute
 * table, its style panel and an identify popup showing it go too: none of them may point at a missing layer
 * (an undo that brings it back must not bring back a stale selection).
 */
export function useLayerRemovalCleanup(): void {
  const layers = useAppStore(selectLayers);
  useEffect(() => {
    const ids = new Set(layers.map((l) => l.id));
    pruneSelection(selectionStore, ids);
    const table = attributeTableStore.getState();
    if (table.layerId && !ids.has(table.layerId)) table.close();
    const style = stylePanelStore.getState();
    if (style.layerId && !ids.has(style.layerId)) style.close();
    const identify = identifyStore.getState();
    if (identify.sections.some((s) => !ids.has(s.layerId))) identify.close();
  }, [layers]);
}
