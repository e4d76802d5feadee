import { create } from 'zustand';

/**
 * Why the map could not draw a layer (a tile or its GeoJSON failed to load), by layer id, so
 * the layer panel says so instead of the layer silently drawing nothing. Set from MapLibre's
 * error events (map/useDisplayProblemWatch.ts), cleared when the layer's data loads again.
 */
interface DisplayProblems {
  byLayer: Record<string, string>;
  report(layerId: string, message: string): void;
  clear(layerId: string): void;
}

export const useDisplayProblems = create<DisplayProblems>((set, get) => ({
  byLayer: {},
  report: (layerId, message) => {
    if (get().byLayer[layerId] !== message) set((s) => ({ byLayer: { ...s.byLayer, [layerId]: message } }));
  },
  clear: (layerId) => {
    if (!(layerId in get().byLayer)) return;
    set((s) => {
      const { [layerId]: _gone, ...rest } = s.byLayer;
      return { byLayer: rest };
    });
  },
}));
