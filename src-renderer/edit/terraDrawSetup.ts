import type { Map as MapLibreMap } from 'maplibre-gl';
import {
  TerraDraw,
  TerraDrawLineStringMode,
  TerraDrawPointMode,
  TerraDrawPolygonMode,
  TerraDrawSelectMode,
  ValidateNotSelfIntersecting,
  type HexColor,
} from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { COORDINATE_PRECISION } from './editGeometry.js';

/** terra-draw's map layers are named `mapwright-edit-…` (polygon, its outline, linestring, point). */
export const EDIT_LAYER_PREFIX = 'mapwright-edit';

/** The sketch colour: distinct from the selection's magenta, so the shape being drawn stands apart. */
const SKETCH: HexColor = '#f97316';
const WHITE: HexColor = '#ffffff';

/** Vertices move and may be inserted (midpoints) or removed; the feature itself stays put. */
const RESHAPE = { feature: { coordinates: { draggable: true, midpoints: true, deletable: true } } };

/**
 * A started terra-draw instance on the map with the modes the editing toolbar offers: point,
 * linestring and polygon drawing, and `select` for reshaping one loaded feature. Its layers
 * start above everything; `raiseEditLayers` puts them back after a layer sync.
 */
export function createTerraDraw(map: MapLibreMap): TerraDraw {
  const adapter = new TerraDrawMapLibreGLAdapter({ map, prefixId: EDIT_LAYER_PREFIX, coordinatePrecision: COORDINATE_PRECISION });
  const draw = new TerraDraw({
    adapter,
    tracked: false,
    modes: [
      new TerraDrawPointMode({ styles: { pointColor: SKETCH, pointWidth: 6, pointOutlineColor: WHITE, pointOutlineWidth: 2 } }),
      new TerraDrawLineStringMode({
        styles: { lineStringColor: SKETCH, lineStringWidth: 3, closingPointColor: WHITE, closingPointOutlineColor: SKETCH },
      }),
      new TerraDrawPolygonMode({
        // A polygon crossing itself is refused as it is drawn, rather than by main afterwards.
        validation: (feature, { updateType }) =>
          String(updateType) === 'provisional' ? { valid: true } : ValidateNotSelfIntersecting(feature),
        styles: {
          fillColor: SKETCH,
          fillOpacity: 0.25,
          outlineColor: SKETCH,
          outlineWidth: 2,
          closingPointColor: WHITE,
          closingPointOutlineColor: SKETCH,
          closingPointWidth: 5,
          closingPointOutlineWidth: 2,
        },
      }),
      new TerraDrawSelectMode({
        flags: { point: { feature: { draggable: true } }, linestring: RESHAPE, polygon: RESHAPE },
        // Delete would drop only the sketch, not the feature: deleting is the toolbar's (and undoable).
        keyEvents: { deselect: null, delete: null, rotate: null, scale: null },
        styles: {
          selectedPolygonColor: SKETCH,
          selectedPolygonFillOpacity: 0.2,
          selectedPolygonOutlineColor: SKETCH,
          selectedPolygonOutlineWidth: 2,
          selectedLineStringColor: SKETCH,
          selectedPointColor: SKETCH,
          selectionPointColor: WHITE,
          selectionPointOutlineColor: SKETCH,
          selectionPointOutlineWidth: 2,
          selectionPointWidth: 5,
          midPointColor: SKETCH,
        },
      }),
    ],
  });
  draw.start();
  return draw;
}

/** Puts terra-draw's layers back on top (after a layer sync moved project layers above them), in their order. */
export function raiseEditLayers(map: Pick<MapLibreMap, 'getLayersOrder' | 'moveLayer'>): void {
  for (const id of map.getLayersOrder().filter((l) => l.startsWith(`${EDIT_LAYER_PREFIX}-`))) map.moveLayer(id);
}
