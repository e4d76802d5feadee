import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { selectFitRequest } from '../store/slices/mapSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { fittableBounds } from './bbox.js';

/** Padding that still leaves the map something to fit into when the window is small. */
export function fitPadding(map: Pick<MapLibreMap, 'getContainer'>): number {
  const { clientWidth, clientHeight } = map.getContainer();
  return Math.max(0, Math.min(48, Math.floor(clientWidth / 5), Math.floor(clientHeight / 5)));
}

/** Plays `map/fit-requested` events (zoom to layer, results of a tool) on the map, once each. */
export function useFitRequests(map: MapLibreMap | null): void {
  const request = useAppStore(selectFitRequest);
  const handled = useRef(0);
  useEffect(() => {
    if (!map || !request || request.seq <= handled.current) return;
    handled.current = request.seq;
    const bounds = fittableBounds(request.bbox);
    if (!bounds) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    map.fitBounds(bounds, { padding: fitPadding(map), maxZoom: 16, duration: reduceMotion || !request.animate ? 0 : 600 });
  }, [map, request]);
}
