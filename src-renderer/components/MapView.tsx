import maplibregl, { type Map as MapLibreMap, type MapOptions } from 'maplibre-gl';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { MapView as MapViewState } from '../../src-shared/domain/mapView.js';
import { buildBasemapStyle } from '../../src-shared/style/basemapStyle.js';
import { fittableBounds, unionExtent } from '../map/bbox.js';
import { dataUrls } from '../map/dataUrls.js';
import { useEditDrawing } from '../edit/useEditDrawing.js';
import { useFileDrop } from '../map/useFileDrop.js';
import { useFitRequests } from '../map/useFitRequests.js';
import { useLayerSync } from '../map/useLayerSync.js';
import { useCursorPosition } from '../map/useCursorPosition.js';
import { useMapSelection } from '../map/useMapSelection.js';
import { useMeasureTool } from '../map/useMeasureTool.js';
import { useOnlineBasemap } from '../map/useOnlineBasemap.js';
import { useAnnotationLayers } from '../map/useAnnotationLayers.js';
import { useDisplayProblemWatch } from '../map/useDisplayProblemWatch.js';
import { useRendererQueries } from '../map/useRendererQueries.js';
import { useSelectionHighlight } from '../map/useSelectionHighlight.js';
import { useSavedView } from '../map/useSavedView.js';
import { appStore } from '../store/appStore.js';
import { selectAppInfo } from '../store/slices/appInfoSlice.js';
import { selectLayers } from '../store/slices/layersSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { EditToolbar } from './EditToolbar.js';
import { IdentifyPopup } from './IdentifyPopup.js';
import { MeasureControl } from './MeasureControl.js';

type TestHandle = { __mapwright?: { map: MapLibreMap } };

/** Where the project's map was left; else the union of its layers; else the world. */
function initialView(saved: MapViewState | null, layers: readonly Layer[]): Partial<MapOptions> {
  if (saved) return { center: saved.center, zoom: saved.zoom, bearing: saved.bearing, pitch: saved.pitch };
  const extent = unionExtent(layers);
  const bounds = extent ? fittableBounds(extent) : null;
  if (bounds) return { bounds, fitBoundsOptions: { padding: 40, maxZoom: 16 } };
  return { center: [0, 20], zoom: 1.2 };
}

/**
 * The only owner of the MapLibre map. It exists once `app/info` says where data lives; after
 * that the store drives it one way: layers through `useLayerSync`, fit requests through
 * `useFitRequests`; `useRendererQueries` answers main's questions about the view. Selection
 * (click, shift-drag box, Escape) and identify come from `useMapSelection`, the highlight from
 * `useSelectionHighlight`, the person's editing (drawing, reshaping) from `useEditDrawing` with
 * its toolbar, measuring from `useMeasureTool` with its control; `useCursorPosition` feeds the
 * status bar's coordinate readout. For end-to-end tests it marks the container with `data-map-loaded` and
 * `data-map-idle-seq` and exposes the instance as `window.__mapwright.map`.
 */
export function MapView() {
  const { t } = useTranslation('status');
  const appInfo = useAppStore(selectAppInfo);
  const layers = useAppStore(selectLayers);
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const dataBase = appInfo?.dataBase;
  const dataQuery = appInfo?.dataQuery;
  const urls = useMemo(
    () => (dataBase === undefined || dataQuery === undefined ? null : dataUrls(dataBase, dataQuery)),
    [dataBase, dataQuery],
  );

  useEffect(() => {
    const container = containerRef.current;
    if (!urls || !container) return;
    const instance = new maplibregl.Map({
      container,
      style: buildBasemapStyle(urls.asset),
      attributionControl: { compact: true },
      // Tests read pixels back from the canvas; the cost is negligible at desktop sizes.
      canvasContextAttributes: { preserveDrawingBuffer: true },
      // Shift-drag selects features in a box (map/boxSelect.ts) instead of zooming to it.
      boxZoom: false,
      // Chinese, Japanese and Korean labels: the app's glyph PBFs (assets/glyphs) are DejaVu, with
      // no ideographs, so MapLibre draws CJK characters locally with this font stack. Droid Sans
      // Fallback comes from Debian's fonts-droid-fallback (Apache-2.0, assets/fonts/SOURCES.md);
      // elsewhere the system's own CJK sans-serif is used.
      localIdeographFontFamily:
        "'Droid Sans Fallback', 'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', sans-serif",
      ...initialView(appStore.getState().savedView, appStore.getState().layers),
    });
    instance.addControl(new maplibregl.NavigationControl({ visualizePitch: false }), 'top-right');
    instance.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-left');
    let idleSeq = 0;
    container.dataset.mapIdleSeq = '0';
    instance.on('load', () => {
      container.dataset.mapLoaded = 'true';
      (window as Window & TestHandle).__mapwright = { map: instance };
      setMap(instance);
    });
    instance.on('idle', () => {
      idleSeq += 1;
      container.dataset.mapIdleSeq = String(idleSeq);
    });
    instance.on('error', (event) => console.warn('[map]', event.error?.message ?? event));
    return () => {
      setMap(null);
      delete container.dataset.mapLoaded;
      delete (window as Window & TestHandle).__mapwright;
      instance.remove();
    };
  }, [urls]);

  // The basemap first: project layers are drawn above whichever basemap shows.
  useOnlineBasemap(map, urls);
  // Fit first: a new first layer's source is then added at the view it will be seen in.
  useFitRequests(map);
  useLayerSync(map, layers, urls);
  // After the layer sync: a layer change puts project layers on top, the highlight goes back above.
  useSelectionHighlight(map, layers);
  // Last of the drawing hooks: the annotations lie above the layers and the highlight.
  useAnnotationLayers(map, layers);
  // The person's editing (issue #14): its sketch is raised last, above the highlight.
  const editing = useEditDrawing(map, layers);
  // The measure tool (issue #15): its drawing goes above everything, even the sketch.
  useMeasureTool(map, layers);
  useCursorPosition(map);
  useSavedView(map);
  useMapSelection(map);
  useDisplayProblemWatch(map);
  useRendererQueries(map);
  // Files dropped on the map become layers (issue #15): its overlay and error go over the map.
  const fileDrop = useFileDrop(containerRef);

  return (
    <div className="map-pane">
      <div className="map-container" ref={containerRef} data-testid="map" />
      {!urls && <div className="map-placeholder">{t('conn_connecting', { ns: 'status' })}</div>}
      <IdentifyPopup map={map} />
      {fileDrop}
      <EditToolbar drawing={editing} />
      <MeasureControl />
    </div>
  );
}
