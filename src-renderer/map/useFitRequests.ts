import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import type { BBox } from '../../src-shared/domain/layer.js';
import { selectFitRequest } from '../store/slices/mapSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { fittableBounds } from './bbox.js';

/** Padding that still leaves the map something to fit into when the window is small. */
export function fitPadding(map: Pick<MapLibreMap, 'getContainer'>): number {
  const { clientWidth, clientHeight } = map.getContainer();
  return Math.max(0, Math.min(48, Math.floor(clientWidth / 5), Math.floor(clientHeight / 5)));
}

/**
 * Fits the map to `bbox` (a short flight unless `animate` is off or motion is reduced); false
 * when the box cannot be fitted and the view stays as it is.
 */
export function playFit(map: MapLibreMap, bbox: BBox, animate: boolean): boolean {
  const bounds = fittableBounds(bbox);
  if (!bounds) return false;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  map.fitBounds(bounds, { padding: fitPadding(map), maxZoom: 16, duration: reduceMotion || !animate ? 0 : 600 });
  return true;
}

/**
 * Plays fit requests from the store (a project opened, zoom to selection) on the map, once
 * each. The `layers.zoom_to` tool fits through a `fit_bounds` query instead (useRendererQueries).
 */
export function useFitRequests(map: MapLibreMap | null): void {
  const request = useAppStore(selectFitRequest);
  const handled = useRef(0);
  useEffect(() => {
    if (!map || !request || request.seq <= handled.current) return;
    handled.current = request.seq;
    playFit(map, request.bbox, request.animate);
  }, [map, request]);
}
