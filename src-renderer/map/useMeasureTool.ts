import type { GeoJSONSource, Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';
import { useEffect } from 'react';
import type { Layer } from '../../src-shared/domain/layer.js';
import { editSessionStore } from '../store/editSessionStore.js';
import { measureStore } from '../store/measureStore.js';
import { selectAnnotations } from '../store/slices/annotationsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { measureReading } from './measureFormat.js';
import type { LonLat } from './measureGeodesic.js';
import { ensureMeasureLayers, MEASURE_SOURCE, measureFeatures, raiseMeasureLayers } from './measureLayers.js';

/** A click this close (px) to the last vertex adds none: a double-click's two clicks make one vertex. */
const SAME_VERTEX_PX = 4;

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName));

/**
 * The measure tool on the map (issue #15): while it is on, a click adds a vertex, a
 * double-click or Enter ends the measurement, Escape clears it; the dashed stretch to the
 * cursor and the label show the running total. Selection and identify stand aside meanwhile
 * (mapToolActive.ts); turning it on stops an editing tool and starting an editing tool turns
 * it off, so only one tool owns the clicks. Call it after the other drawing hooks: its layers
 * go above theirs.
 */
export function useMeasureTool(map: MapLibreMap | null, layers: readonly Layer[]): void {
  const annotations = useAppStore(selectAnnotations);

  useEffect(() => {
    if (map) raiseMeasureLayers(map);
  }, [map, layers, annotations]);

  useEffect(() => {
    if (!map) return;
    ensureMeasureLayers(map);
    const state = () => measureStore.getState();
    let hover: LonLat | null = null;
    let frame = 0;

    const draw = () => {
      frame = 0;
      const { active, mode, points, finished } = state();
      const cursor = active && !finished && points.length > 0 ? hover : null;
      const drawn = cursor ? [...points, cursor] : points;
      const enough = drawn.length >= (mode === 'area' ? 3 : 2);
      const label = active && enough ? measureReading(mode, drawn).text : null;
      (map.getSource(MEASURE_SOURCE) as GeoJSONSource | undefined)?.setData(measureFeatures(mode, active ? points : [], cursor, label));
    };
    // At most one redraw per frame, however fast the mouse moves.
    const schedule = () => {
      frame ||= requestAnimationFrame(draw);
    };

    const onClick = (e: MapMouseEvent) => {
      if (!state().active) return;
      const { points, finished } = state();
      const last = points.at(-1);
      if (!finished && last) {
        const at = map.project(last);
        if (Math.hypot(at.x - e.point.x, at.y - e.point.y) <= SAME_VERTEX_PX) return;
      }
      state().addPoint([e.lngLat.lng, e.lngLat.lat]);
    };
    const onDoubleClick = (e: MapMouseEvent) => {
      if (!state().active) return;
      e.preventDefault();
      state().finish();
    };
    const onMove = (e: MapMouseEvent) => {
      if (!state().active) return;
      hover = [e.lngLat.lng, e.lngLat.lat];
      schedule();
    };
    const onOut = () => {
      hover = null;
      schedule();
    };
    const onKey = (e: KeyboardEvent) => {
      if (!state().active || e.defaultPrevented || isTyping(e.target)) return;
      if (e.key === 'Enter') state().finish();
      else if (e.key === 'Escape') state().clear();
    };

    const unsubscribe = measureStore.subscribe((now, before) => {
      if (now.active !== before.active) {
        // Double-click ends a measurement instead of zooming in; the crosshair says a tool is on.
        if (now.active) map.doubleClickZoom.disable();
        else map.doubleClickZoom.enable();
        map.getCanvas().style.cursor = now.active ? 'crosshair' : '';
        if (now.active && editSessionStore.getState().tool !== 'idle') editSessionStore.getState().setTool('idle');
      }
      schedule();
    });
    // An editing tool picked from its toolbar takes the clicks back.
    const unsubscribeEdit = editSessionStore.subscribe((s) => {
      if (s.tool !== 'idle' && state().active) state().setActive(false);
    });

    map.on('click', onClick);
    map.on('dblclick', onDoubleClick);
    map.on('mousemove', onMove);
    map.on('mouseout', onOut);
    window.addEventListener('keydown', onKey);
    return () => {
      unsubscribe();
      unsubscribeEdit();
      if (frame) cancelAnimationFrame(frame);
      map.off('click', onClick);
      map.off('dblclick', onDoubleClick);
      map.off('mousemove', onMove);
      map.off('mouseout', onOut);
      window.removeEventListener('keydown', onKey);
    };
  }, [map]);
}
