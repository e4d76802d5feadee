import type { ExpressionSpecification, GeoJSONSourceSpecification, LayerSpecification } from 'maplibre-gl';

/**
 * The selection highlight: its own GeoJSON source and three layers in one bright colour, kept
 * above every project layer and label so a selected feature is never hidden. Filled with full
 * geometries from `layers/features`, not from tiles, so a feature cut at tile edges is whole.
 */
export const SELECTION_SOURCE = 'mapwright-selection';
export const SELECTION_COLOUR = '#ff1fd2';
const CASING = '#ffffff';

const isType = (base: 'Point' | 'LineString' | 'Polygon'): ExpressionSpecification => [
  'match',
  ['geometry-type'],
  [base, `Multi${base}`],
  true,
  false,
];

export const SELECTION_LAYERS: LayerSpecification[] = [
  {
    id: 'mapwright-selection-fill',
    type: 'fill',
    source: SELECTION_SOURCE,
    filter: isType('Polygon'),
    paint: { 'fill-color': SELECTION_COLOUR, 'fill-opacity': 0.35 },
  },
  {
    id: 'mapwright-selection-line',
    type: 'line',
    source: SELECTION_SOURCE,
    filter: ['!', isType('Point')],
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': SELECTION_COLOUR, 'line-width': 3 },
  },
  {
    id: 'mapwright-selection-circle',
    type: 'circle',
    source: SELECTION_SOURCE,
    filter: isType('Point'),
    paint: { 'circle-color': SELECTION_COLOUR, 'circle-radius': 6, 'circle-stroke-color': CASING, 'circle-stroke-width': 2 },
  },
];

export const EMPTY_COLLECTION = { type: 'FeatureCollection' as const, features: [] };

/** The slice of MapLibre's Map used here, so it can be tested against a fake. */
export interface HighlightTarget {
  getSource(id: string): unknown;
  addSource(id: string, source: GeoJSONSourceSpecification): unknown;
  getLayer(id: string): unknown;
  addLayer(layer: LayerSpecification): unknown;
  moveLayer(id: string): unknown;
  getLayersOrder(): string[];
}

export function ensureSelectionLayers(map: HighlightTarget): void {
  if (!map.getSource(SELECTION_SOURCE)) map.addSource(SELECTION_SOURCE, { type: 'geojson', data: EMPTY_COLLECTION });
  for (const layer of SELECTION_LAYERS) if (!map.getLayer(layer.id)) map.addLayer(layer);
}

/** The layer sync puts project layers on top; this puts the highlight back above them. */
export function raiseSelectionLayers(map: HighlightTarget): void {
  const ids = SELECTION_LAYERS.map((l) => l.id);
  const order = map.getLayersOrder();
  const tail = order.slice(order.length - ids.length);
  if (tail.every((id, i) => id === ids[i])) return;
  for (const id of ids) if (map.getLayer(id)) map.moveLayer(id);
}
