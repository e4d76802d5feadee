import type { Layer } from '../../../src-shared/domain/layer.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

export interface LayersSlice {
  /** Bottom-first (ascending `order`), the order the map draws them. */
  layers: Layer[];
  setLayers(layers: Layer[]): void;
}

export function sortLayers(layers: readonly Layer[]): Layer[] {
  return [...layers].sort((a, b) => a.order - b.order);
}

export const createLayersSlice: SliceCreator<LayersSlice> = (set) => ({
  layers: [],
  setLayers: (layers) => set({ layers: sortLayers(layers) }, false, 'layers/changed'),
});

export const selectLayers = (s: AppState) => s.layers;

let lastBottomFirst: Layer[] | null = null;
let lastTopFirst: Layer[] = [];
/** Top-first for the layer panel; memoised so subscribers see a stable array. */
export function selectLayersTopFirst(s: AppState): Layer[] {
  if (s.layers !== lastBottomFirst) {
    lastBottomFirst = s.layers;
    lastTopFirst = [...s.layers].reverse();
  }
  return lastTopFirst;
}
