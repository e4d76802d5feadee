import type { Feature, FeatureCollection } from 'geojson';
import type { ExpressionSpecification, LayerSpecification } from 'maplibre-gl';
import { LABEL_FONTSTACK } from '../../src-shared/style/glyphs.js';
import type { MeasureMode } from '../store/measureStore.js';
import type { LonLat } from './measureGeodesic.js';

/**
 * The measure tool's drawing: one GeoJSON source and a few layers kept above everything else
 * (project layers, selection, annotations, the editing sketch), so what is measured is always
 * seen. The placed path is solid, the stretch to the cursor dashed; vertices are dots; the
 * running total is a label at the end of the path (at the cursor while it moves).
 */
export const MEASURE_SOURCE = 'mapwright-measure';

type Part = 'area' | 'path' | 'rubber' | 'vertex' | 'label';
const part = (p: Part): ExpressionSpecification => ['==', ['get', 'part'], p];
const COLOR = '#e4572e';

export const MEASURE_LAYERS: LayerSpecification[] = [
  {
    id: 'mapwright-measure-fill',
    type: 'fill',
    source: MEASURE_SOURCE,
    filter: part('area'),
    paint: { 'fill-color': COLOR, 'fill-opacity': 0.15 },
  },
  {
    id: 'mapwright-measure-line',
    type: 'line',
    source: MEASURE_SOURCE,
    filter: part('path'),
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': COLOR, 'line-width': 2.5 },
  },
  {
    id: 'mapwright-measure-rubber',
    type: 'line',
    source: MEASURE_SOURCE,
    filter: part('rubber'),
    paint: { 'line-color': COLOR, 'line-width': 2, 'line-dasharray': [2, 2] },
  },
  {
    id: 'mapwright-measure-vertex',
    type: 'circle',
    source: MEASURE_SOURCE,
    filter: part('vertex'),
    paint: { 'circle-color': '#ffffff', 'circle-radius': 4, 'circle-stroke-color': COLOR, 'circle-stroke-width': 2 },
  },
  {
    id: 'mapwright-measure-label',
    type: 'symbol',
    source: MEASURE_SOURCE,
    filter: part('label'),
    layout: {
      'text-field': ['get', 'text'],
      'text-font': [LABEL_FONTSTACK],
      'text-size': 13,
      'text-anchor': 'bottom-left',
      'text-offset': [0.6, -0.4],
      'text-allow-overlap': true,
      'text-ignore-placement': true,
    },
    paint: { 'text-color': '#1a1a1a', 'text-halo-color': '#ffffff', 'text-halo-width': 1.8 },
  },
];

export const MEASURE_LAYER_IDS = MEASURE_LAYERS.map((l) => l.id);

const feature = (p: Part, geometry: Feature['geometry'], props: Record<string, unknown> = {}): Feature => ({
  type: 'Feature',
  geometry,
  properties: { part: p, ...props },
});

/**
 * The source's data for a measurement: its placed `points`, the `cursor` while one is being
 * drawn (null once finished) and the `label` text of its running total.
 */
export function measureFeatures(
  mode: MeasureMode,
  points: readonly LonLat[],
  cursor: LonLat | null,
  label: string | null,
): FeatureCollection {
  const features: Feature[] = [];
  const drawn = cursor ? [...points, cursor] : [...points];
  if (mode === 'area' && drawn.length >= 3) features.push(feature('area', { type: 'Polygon', coordinates: [[...drawn, drawn[0]!]] }));
  // An area's outline closes back to the first point once it is finished.
  const path = mode === 'area' && !cursor && points.length >= 3 ? [...points, points[0]!] : points;
  if (path.length >= 2) features.push(feature('path', { type: 'LineString', coordinates: [...path] }));
  const last = points.at(-1);
  if (cursor && last) {
    const rubber = mode === 'area' && points.length >= 2 ? [last, cursor, points[0]!] : [last, cursor];
    features.push(feature('rubber', { type: 'LineString', coordinates: rubber }));
  }
  for (const p of points) features.push(feature('vertex', { type: 'Point', coordinates: p }));
  const anchor = cursor ?? last;
  if (label && anchor) features.push(feature('label', { type: 'Point', coordinates: anchor }, { text: label }));
  return { type: 'FeatureCollection', features };
}

/** The slice of MapLibre's Map used here. */
export interface MeasureTarget {
  getSource(id: string): unknown;
  addSource(id: string, source: { type: 'geojson'; data: FeatureCollection }): unknown;
  getLayer(id: string): unknown;
  addLayer(layer: LayerSpecification): unknown;
  moveLayer(id: string): unknown;
  getLayersOrder(): string[];
}

export function ensureMeasureLayers(map: MeasureTarget): void {
  if (!map.getSource(MEASURE_SOURCE)) map.addSource(MEASURE_SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  for (const layer of MEASURE_LAYERS) if (!map.getLayer(layer.id)) map.addLayer(layer);
}

/** Puts the measure layers back on top after anything else (layer sync, annotations, sketch) moved above. */
export function raiseMeasureLayers(map: MeasureTarget): void {
  const order = map.getLayersOrder();
  const tail = order.slice(order.length - MEASURE_LAYER_IDS.length);
  if (tail.every((id, i) => id === MEASURE_LAYER_IDS[i])) return;
  for (const id of MEASURE_LAYER_IDS) if (map.getLayer(id)) map.moveLayer(id);
}
