import type { GeoJSONSource, Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';
import { useEffect } from 'react';
import type { AnnotationGeometry } from '../../src-shared/domain/annotation.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { appStore } from '../store/appStore.js';
import { selectAnnotations, selectMovingAnnotation } from '../store/slices/annotationsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ANNOTATION_SOURCE, annotationFeatures, ensureAnnotationLayers, raiseAnnotationLayers, translated } from './annotationLayers.js';

/**
 * Draws the annotations above the project layers and lets the person drag one: the list's
 * Move button sets `movingAnnotationId`; the next drag on the map shifts that annotation with
 * the pointer (map panning paused meanwhile) and, on release, sends `annotations.move` through
 * `entries/trigger`, so the move is validated, audited and undoable like any change. Call it
 * after `useSelectionHighlight`, so that on a layer change the annotations end up topmost.
 */
export function useAnnotationLayers(map: MapLibreMap | null, layers: readonly Layer[]): void {
  const annotations = useAppStore(selectAnnotations);
  const movingId = useAppStore(selectMovingAnnotation);
  const trigger = useEntryTrigger();

  useEffect(() => {
    if (!map) return;
    ensureAnnotationLayers(map);
    (map.getSource(ANNOTATION_SOURCE) as GeoJSONSource | undefined)?.setData(annotationFeatures(annotations));
  }, [map, annotations]);

  useEffect(() => {
    if (map) raiseAnnotationLayers(map);
  }, [map, layers, annotations]);

  useEffect(() => {
    const moving = movingId ? annotations.find((a) => a.id === movingId) : undefined;
    if (!map || !moving) return;
    const source = () => map.getSource(ANNOTATION_SOURCE) as GeoJSONSource | undefined;
    const canvas = map.getCanvasContainer();
    canvas.style.cursor = 'move';
    let start: { lng: number; lat: number } | null = null;
    let geometry: AnnotationGeometry = moving.geometry;

    const onDown = (e: MapMouseEvent) => {
      start = e.lngLat;
      map.dragPan.disable();
      e.preventDefault();
    };
    const onMove = (e: MapMouseEvent) => {
      if (!start) return;
      geometry = translated(moving.geometry, e.lngLat.lng - start.lng, e.lngLat.lat - start.lat);
      source()?.setData(annotationFeatures(appStore.getState().annotations, { id: moving.id, geometry }));
    };
    const onUp = () => {
      if (!start) return;
      start = null;
      map.dragPan.enable();
      appStore.getState().setMovingAnnotation(null);
      void trigger('annotations.move', { id: moving.id, geometry }).then((error) => {
        // Refused (deleted meanwhile, a run is live…): draw it where main still has it.
        if (error) {
          appStore.getState().setAnnotationError(error);
          source()?.setData(annotationFeatures(appStore.getState().annotations));
        }
      });
    };
    // Escape leaves move mode without moving.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      appStore.getState().setMovingAnnotation(null);
      source()?.setData(annotationFeatures(appStore.getState().annotations));
    };
    window.addEventListener('keydown', onKey);
    map.on('mousedown', onDown);
    map.on('mousemove', onMove);
    map.on('mouseup', onUp);
    return () => {
      map.off('mousedown', onDown);
      map.off('mousemove', onMove);
      map.off('mouseup', onUp);
      window.removeEventListener('keydown', onKey);
      map.dragPan.enable();
      canvas.style.cursor = '';
    };
  }, [map, movingId, annotations, trigger]);
}
