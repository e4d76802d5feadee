import type { Feature, FeatureCollection } from 'geojson';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import { useEffect } from 'react';
import type { Layer } from '../../src-shared/domain/layer.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';
import { selectionStore, type SelectionState } from '../store/selectionStore.js';
import { HighlightCache } from './highlightCache.js';
import { EMPTY_COLLECTION, ensureSelectionLayers, raiseSelectionLayers, SELECTION_SOURCE } from './selectionLayers.js';

/**
 * Draws the selection on the map: fetches the selected features through `layers/features`
 * (the first 10,000) into the highlight source and reports what it drew (count, extent, cap)
 * to the selection store, where the table's "Zoom to selection" reads the extent.
 * Call it after `useLayerSync` so that, on a layer change, the highlight goes back on top.
 */
export function useSelectionHighlight(map: MapLibreMap | null, layers: readonly Layer[]): void {
  const bridge = useBridge();

  useEffect(() => {
    if (!map) return;
    ensureSelectionLayers(map);
    const cache = new HighlightCache();
    let latest = 0;
    const draw = (data: FeatureCollection) => (map.getSource(SELECTION_SOURCE) as GeoJSONSource | undefined)?.setData(data);

    async function show({ layerId, fids, setHighlight }: SelectionState): Promise<void> {
      const request = ++latest;
      const layer = layerId ? appStore.getState().layers.find((l) => l.id === layerId) : undefined;
      // Tables have no geometry; nothing to draw or zoom to.
      if (!layerId || fids.size === 0 || !layer || layer.kind !== 'vector') {
        cache.reset();
        draw(EMPTY_COLLECTION);
        setHighlight(null);
        return;
      }
      const { wanted, missing, capped } = cache.plan(layerId, fids);
      let error: string | null = null;
      if (missing.length > 0) {
        setHighlight({ loading: true, shown: 0, capped, bbox: null, error: null });
        try {
          const answer = await bridge.call('layers/features', { layerId, fids: missing });
          cache.add(layerId, answer.features);
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
        }
        if (request !== latest) return; // a newer selection is on its way
      }
      const { features, bbox } = cache.resolve(wanted);
      draw({ type: 'FeatureCollection', features: features as Feature[] });
      setHighlight({ loading: false, shown: features.length, capped, bbox, error });
    }

    // An edit or its undo changes the selected layer's data (its revision): fetch the features again.
    const dataOf = (layerId: string | null) => {
      const layer = layerId ? appStore.getState().layers.find((l) => l.id === layerId) : undefined;
      return layer ? `${layer.source}\n${layer.editing?.revision ?? ''}` : '';
    };
    let shownData = dataOf(selectionStore.getState().layerId);
    void show(selectionStore.getState());
    const unsubscribe = selectionStore.subscribe((state, previous) => {
      if (state.fids !== previous.fids || state.layerId !== previous.layerId) {
        shownData = dataOf(state.layerId);
        void show(state);
      }
    });
    const unsubscribeLayers = appStore.subscribe((state, previous) => {
      if (state.layers === previous.layers) return;
      const data = dataOf(selectionStore.getState().layerId);
      if (data === shownData) return;
      shownData = data;
      cache.reset();
      void show(selectionStore.getState());
    });
    return () => {
      unsubscribe();
      unsubscribeLayers();
      latest += 1;
    };
  }, [map, bridge]);

  useEffect(() => {
    if (map) raiseSelectionLayers(map);
  }, [map, layers]);
}
