import type { Map as MapLibreMap, MapSourceDataEvent } from 'maplibre-gl';
import { useEffect } from 'react';
import { useDisplayProblems } from '../store/displayProblemsStore.js';
import { i18n } from '../i18n/i18n.js';

/** `src-<layerId>` (src-shared/style/compileShared.ts) → the layer id; other sources are not ours. */
export function layerIdOfSource(sourceId: unknown): string | null {
  if (typeof sourceId !== 'string') return null;
  const m = /^src-(.+?)(?:-labels)?$/.exec(sourceId);
  return m ? m[1]! : null;
}

/** What a person reads when a layer's data did not load: the HTTP status where there is one. */
export function problemText(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 404) return i18n.t('map:problemNotFound');
  if (typeof status === 'number') return i18n.t('map:problemHttp', { status });
  return i18n.t('map:problemOther');
}

/** Listens to the map's data errors and successes and keeps the layer panel's problems current. */
export function useDisplayProblemWatch(map: MapLibreMap | null): void {
  useEffect(() => {
    if (!map) return;
    const onError = (e: { sourceId?: unknown; error?: unknown }) => {
      const layerId = layerIdOfSource(e.sourceId);
      if (layerId) useDisplayProblems.getState().report(layerId, problemText(e.error));
    };
    const onData = (e: MapSourceDataEvent) => {
      const layerId = layerIdOfSource(e.sourceId);
      // A tile or document that did load: whatever failed before has recovered.
      if (layerId && e.dataType === 'source' && e.tile) useDisplayProblems.getState().clear(layerId);
    };
    map.on('error', onError);
    map.on('sourcedata', onData);
    return () => {
      map.off('error', onError);
      map.off('sourcedata', onData);
    };
  }, [map]);
}
