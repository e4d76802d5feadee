import type { Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';
import { useEffect } from 'react';
import { cursorStore } from '../store/cursorStore.js';

/**
 * Publishes the mouse's map position to cursorStore for the coordinate readout, at most once
 * per animation frame: mousemove fires far more often than the status bar can usefully redraw.
 */
export function useCursorPosition(map: MapLibreMap | null): void {
  useEffect(() => {
    if (!map) return;
    let frame = 0;
    let latest: [number, number] | null = null;
    const publish = () => {
      frame = 0;
      cursorStore.getState().set(latest);
    };
    const update = (at: [number, number] | null) => {
      latest = at;
      frame ||= requestAnimationFrame(publish);
    };
    const onMove = (e: MapMouseEvent) => update([e.lngLat.wrap().lng, e.lngLat.lat]);
    const onOut = () => update(null);
    map.on('mousemove', onMove);
    map.on('mouseout', onOut);
    return () => {
      map.off('mousemove', onMove);
      map.off('mouseout', onOut);
      if (frame) cancelAnimationFrame(frame);
      cursorStore.getState().set(null);
    };
  }, [map]);
}
