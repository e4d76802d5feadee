import type { Map as MapLibreMap, MapMouseEvent, PointLike } from 'maplibre-gl';
import { useEffect } from 'react';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';
import { attributeTableStore } from '../store/attributeTableStore.js';
import { mapToolActive } from './mapToolActive.js';
import { identifyStore } from '../store/identifyStore.js';
import { selectionStore } from '../store/selectionStore.js';
import { attachBoxSelect, type ScreenPoint } from './boxSelect.js';
import { identifyHits } from './identify.js';
import { boxSelectionTarget, groupHits, queryLayerIds, type Hit } from './mapHits.js';

/** Lines and points are hard to hit exactly: they are found this many pixels away. */
const NEAR_PX = 4;

function projectLayers() {
  return appStore.getState().layers;
}

/** The project's features in a point or box, topmost layer first. */
function featuresIn(map: MapLibreMap, where: { point: ScreenPoint } | { box: [ScreenPoint, ScreenPoint] }): Hit[] {
  const layers = projectLayers();
  const ids = queryLayerIds(layers, (id) => !!map.getLayer(id));
  if (ids.point.length === 0) return [];
  const found =
    'box' in where
      ? map.queryRenderedFeatures(where.box.map((p) => [p.x, p.y]) as [PointLike, PointLike], { layers: ids.point })
      : [
          ...map.queryRenderedFeatures([where.point.x, where.point.y], { layers: ids.point }),
          ...(ids.near.length
            ? map.queryRenderedFeatures(
                [
                  [where.point.x - NEAR_PX, where.point.y - NEAR_PX],
                  [where.point.x + NEAR_PX, where.point.y + NEAR_PX],
                ],
                { layers: ids.near },
              )
            : []),
        ];
  return groupHits(found, map.getLayersOrder(), new Set(layers.map((l) => l.id)));
}

const isEditable = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || !!target.closest('dialog, [role="dialog"]'));

/**
 * Selection and identify on the map. A plain click selects the topmost feature under the cursor
 * and opens the identify popup for every layer there (a click on empty map clears both);
 * ctrl/cmd-click toggles a feature; shift-click adds one; shift-drag selects the features in a
 * box (ctrl/cmd+shift-drag adds them); Escape clears. Drags without shift pan as before.
 */
export function useMapSelection(map: MapLibreMap | null): void {
  const bridge = useBridge();
  useEffect(() => {
    if (!map) return;
    const selection = () => selectionStore.getState();

    const onClick = (e: MapMouseEvent) => {
      // A drawing, reshaping or measuring tool owns the clicks: they place vertices.
      if (mapToolActive()) return;
      const hits = featuresIn(map, { point: e.point });
      const top = hits[0];
      if (e.originalEvent.ctrlKey || e.originalEvent.metaKey) {
        if (top) selection().toggle(top.layerId, top.fids[0]!, 'map');
        return;
      }
      if (!top) {
        selection().clear();
        identifyStore.getState().close();
        return;
      }
      selection().select(top.layerId, [top.fids[0]!], 'map', top.fids[0]!);
      const seq = identifyStore.getState().start([e.lngLat.lng, e.lngLat.lat]);
      void identifyHits(bridge, hits, projectLayers()).then((sections) => identifyStore.getState().finish(seq, sections));
    };

    const detachBox = attachBoxSelect(map, {
      onBox: (a, b, additive) => {
        if (mapToolActive()) return;
        const hits = featuresIn(map, { box: [a, b] });
        const target = boxSelectionTarget(hits, [attributeTableStore.getState().layerId, selection().layerId]);
        if (!target) {
          if (!additive) selection().clear();
          return;
        }
        if (additive) selection().add(target.layerId, target.fids, 'map');
        else selection().select(target.layerId, target.fids, 'map');
      },
      onShiftClick: (point) => {
        if (mapToolActive()) return;
        const top = featuresIn(map, { point })[0];
        if (top) selection().add(top.layerId, [top.fids[0]!], 'map');
      },
    });

    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || isEditable(e.target)) return;
      selection().clear();
      identifyStore.getState().close();
    };

    map.on('click', onClick);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      map.off('click', onClick);
      detachBox();
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [map, bridge]);
}
