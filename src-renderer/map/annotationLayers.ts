import type { Feature, FeatureCollection, Position } from 'geojson';
import type { ExpressionSpecification, GeoJSONSourceSpecification, LayerSpecification } from 'maplibre-gl';
import type { Annotation, AnnotationGeometry } from '../../src-shared/domain/annotation.js';
import { LABEL_FONTSTACK } from '../../src-shared/style/glyphs.js';

/**
 * The annotation layer (issue #14) as MapLibre draws it: one GeoJSON source and a few layers
 * kept above every project layer. They are on the map's canvas, so `map.screenshot` (which
 * reads the canvas) shows them. Each feature carries its annotation's colour, so one set of
 * layers draws them all. An arrow's head is a triangle icon made here (the offline basemap has
 * no sprite), drawn as an SDF so it takes any colour, turned along the last segment and kept
 * the same size on screen at every zoom.
 */
export const ANNOTATION_SOURCE = 'mapwright-annotations';
export const ARROW_HEAD_IMAGE = 'mapwright-arrow-head';

/** What a feature of the source is: the annotation itself, an arrow's head, or a text anchor. */
type Part = 'shape' | 'head' | 'label';
const part = (p: Part): ExpressionSpecification => ['==', ['get', 'part'], p];
const kindIs = (k: Annotation['kind']): ExpressionSpecification => ['==', ['get', 'kind'], k];
const COLOR: ExpressionSpecification = ['get', 'color'];

export const ANNOTATION_LAYERS: LayerSpecification[] = [
  {
    id: 'mapwright-annotation-fill',
    type: 'fill',
    source: ANNOTATION_SOURCE,
    filter: ['all', part('shape'), kindIs('highlight')],
    paint: { 'fill-color': COLOR, 'fill-opacity': 0.3 },
  },
  {
    id: 'mapwright-annotation-line',
    type: 'line',
    source: ANNOTATION_SOURCE,
    filter: ['all', part('shape'), ['!', kindIs('note')]],
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': COLOR, 'line-width': ['case', kindIs('arrow'), 3.5, 2.5] },
  },
  {
    id: 'mapwright-annotation-head',
    type: 'symbol',
    source: ANNOTATION_SOURCE,
    filter: part('head'),
    layout: {
      'icon-image': ARROW_HEAD_IMAGE,
      // The image's tip is its top centre: anchored there, it ends where the line ends, and a
      // little beyond, over the line's round cap.
      'icon-anchor': 'top',
      'icon-offset': [0, -2],
      'icon-rotate': ['get', 'bearing'],
      'icon-rotation-alignment': 'map',
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
    },
    paint: { 'icon-color': COLOR },
  },
  {
    id: 'mapwright-annotation-marker',
    type: 'circle',
    source: ANNOTATION_SOURCE,
    filter: ['all', part('shape'), kindIs('note')],
    paint: { 'circle-color': COLOR, 'circle-radius': 8, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 },
  },
  {
    id: 'mapwright-annotation-label',
    type: 'symbol',
    source: ANNOTATION_SOURCE,
    filter: part('label'),
    layout: {
      'text-field': ['get', 'text'],
      'text-font': [LABEL_FONTSTACK],
      'text-size': 13,
      'text-anchor': 'left',
      'text-offset': [1, 0],
      'text-max-width': 16,
      // A note the person was told about must show, whatever else is labelled there.
      'text-allow-overlap': true,
      'text-ignore-placement': true,
    },
    paint: { 'text-color': '#1a1a1a', 'text-halo-color': '#ffffff', 'text-halo-width': 1.6 },
  },
];

export const ANNOTATION_LAYER_IDS = ANNOTATION_LAYERS.map((l) => l.id);

/** The source's data: each annotation (with `geometry` replaced while the person drags it). */
export function annotationFeatures(list: readonly Annotation[], dragged?: { id: string; geometry: AnnotationGeometry }): FeatureCollection {
  const features: Feature[] = [];
  for (const a of list) {
    const geometry = dragged?.id === a.id ? dragged.geometry : a.geometry;
    const props = { id: a.id, kind: a.kind, color: a.color, text: a.text };
    features.push({ type: 'Feature', geometry, properties: { ...props, part: 'shape' } });
    if (geometry.type === 'LineString') {
      const tip = geometry.coordinates.at(-1)!;
      const bearing = headBearing(geometry.coordinates);
      if (bearing !== null)
        features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: tip }, properties: { ...props, part: 'head', bearing } });
    }
    if (a.text)
      features.push({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: labelAnchor(geometry) },
        properties: { ...props, part: 'label' },
      });
  }
  return { type: 'FeatureCollection', features };
}

/**
 * Which way the last segment of a line points on the (Web Mercator) map, in degrees clockwise
 * from north: what `icon-rotate` wants. Null when the last segment has no length.
 */
export function headBearing(line: readonly Position[]): number | null {
  const [from, tip] = [line.at(-2)!, line.at(-1)!];
  const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
  const dx = ((tip[0]! - from[0]!) * Math.PI) / 180;
  const dy = mercY(tip[1]!) - mercY(from[1]!);
  if (dx === 0 && dy === 0) return null;
  return (Math.atan2(dx, dy) * 180) / Math.PI;
}

/**
 * The arrow head icon: a triangle pointing up (tip at the top centre) as an alpha mask, which
 * MapLibre reads as an SDF and fills with the feature's `icon-color`. Edges are antialiased
 * by supersampling each pixel.
 */
export function arrowHeadImage(size = 22): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(size * size * 4);
  const inside = (x: number, y: number) => y >= 1 && y <= size - 1 && Math.abs(x - size / 2) <= ((y - 1) / (size - 2)) * (size / 2 - 1);
  const n = 4;
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      let hits = 0;
      for (let sy = 0; sy < n; sy++) for (let sx = 0; sx < n; sx++) if (inside(px + (sx + 0.5) / n, py + (sy + 0.5) / n)) hits++;
      data.set([255, 255, 255, Math.round((255 * hits) / (n * n))], (py * size + px) * 4);
    }
  return { width: size, height: size, data };
}

/** Where the text goes: at a note, at an arrow's tail (its head points at the thing), in a highlight's box. */
export function labelAnchor(g: AnnotationGeometry): [number, number] {
  if (g.type === 'Point') return g.coordinates;
  if (g.type === 'LineString') return g.coordinates[0]!;
  const ring = g.coordinates[0]!;
  const lons = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return [(Math.min(...lons) + Math.max(...lons)) / 2, (Math.min(...lats) + Math.max(...lats)) / 2];
}

/** The same geometry shifted by (dLon, dLat), kept within lon/lat ranges: what a drag does. */
export function translated(g: AnnotationGeometry, dLon: number, dLat: number): AnnotationGeometry {
  const move = (p: [number, number]): [number, number] => [clamp(p[0] + dLon, -180, 180), clamp(p[1] + dLat, -85, 85)];
  if (g.type === 'Point') return { type: 'Point', coordinates: move(g.coordinates) };
  if (g.type === 'LineString') return { type: 'LineString', coordinates: g.coordinates.map(move) };
  return { type: 'Polygon', coordinates: g.coordinates.map((ring) => ring.map(move)) };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The slice of MapLibre's Map used here, so it can be tested against a fake. */
export interface AnnotationTarget {
  hasImage(id: string): boolean;
  addImage(id: string, image: { width: number; height: number; data: Uint8Array }, options: { sdf: boolean }): unknown;
  getSource(id: string): unknown;
  addSource(id: string, source: GeoJSONSourceSpecification): unknown;
  getLayer(id: string): unknown;
  addLayer(layer: LayerSpecification): unknown;
  moveLayer(id: string): unknown;
  getLayersOrder(): string[];
}

export function ensureAnnotationLayers(map: AnnotationTarget): void {
  if (!map.hasImage(ARROW_HEAD_IMAGE)) map.addImage(ARROW_HEAD_IMAGE, arrowHeadImage(), { sdf: true });
  if (!map.getSource(ANNOTATION_SOURCE))
    map.addSource(ANNOTATION_SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  for (const layer of ANNOTATION_LAYERS) if (!map.getLayer(layer.id)) map.addLayer(layer);
}

/** The layer sync puts project layers (and the selection) on top; this puts the annotations back above them. */
export function raiseAnnotationLayers(map: AnnotationTarget): void {
  const order = map.getLayersOrder();
  const tail = order.slice(order.length - ANNOTATION_LAYER_IDS.length);
  if (tail.every((id, i) => id === ANNOTATION_LAYER_IDS[i])) return;
  for (const id of ANNOTATION_LAYER_IDS) if (map.getLayer(id)) map.moveLayer(id);
}
