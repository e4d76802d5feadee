import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect } from 'react';
import type { MapView } from '../../src-shared/domain/mapView.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';

/** Long enough that a pan is one write, short enough that a window closed soon after keeps it. */
const SAVE_AFTER_MS = 400;

/** The map's view as the project keeps it. */
export function viewOf(map: MapLibreMap): MapView {
  const c = map.getCenter().wrap();
  const round = (n: number, digits: number) => Number(n.toFixed(digits));
  return {
    center: [round(c.lng, 7), round(c.lat, 7)],
    zoom: round(map.getZoom(), 3),
    bearing: round(map.getBearing(), 2),
    pitch: round(map.getPitch(), 2),
  };
}

/**
 * Saves the map view with the project as the person moves the map (issue #15): the project
 * opens where it was left. Written a moment after the map comes to rest.
 */
export function useSavedView(map: MapLibreMap | null): void {
  const bridge = useBridge();
  useEffect(() => {
    if (!map) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      const projectId = appStore.getState().project?.id;
      const params = { view: viewOf(map), ...(projectId ? { projectId } : {}) };
      timer = setTimeout(() => void bridge.call('project/set-view', params).catch(() => undefined), SAVE_AFTER_MS);
    };
    map.on('moveend', save);
    return () => {
      clearTimeout(timer);
      map.off('moveend', save);
    };
  }, [map, bridge]);
}
