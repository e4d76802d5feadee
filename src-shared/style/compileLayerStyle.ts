import type {
  ExpressionSpecification,
  FilterSpecification,
  LayerSpecification,
  SourceSpecification,
} from 'maplibre-gl';
import type { BBox, Layer } from '../domain/layer.js';
import { defaultVectorStyle, type SimpleVectorStyle } from './styleModel.js';

/**
 * Layer style → MapLibre source and layers. Pure: the renderer's map sync calls it for every
 * project layer and diffs the result into the map, so the same input must give the same output.
 * Only the ids below are stable names other code may rely on (`layer-<id>-<part>`, `src-<id>`).
 */

export interface LayerUrls {
  /** Full URL of a host data path such as `data/layers/ID.geojson` or `tiles/ID/{z}/{x}/{y}.png`. */
  data(path: string): string;
}

export interface CompiledLayerStyle {
  sourceId: string;
  source: SourceSpecification;
  /** Bottom-first: the order they are added to the map. */
  layers: LayerSpecification[];
}

export type GeometryKind = 'polygon' | 'line' | 'point' | 'mixed';

/** Fill is drawn translucent so what lies beneath stays readable, as GIS desktops do. */
export const FILL_OPACITY_FACTOR = 0.7;

export function sourceIdFor(layerId: string): string {
  return `src-${layerId}`;
}

export function mapLayerIdFor(layerId: string, part: 'fill' | 'outline' | 'line' | 'circle' | 'raster'): string {
  return `layer-${layerId}-${part}`;
}

const POLYGON_TYPES = new Set([
  'Polygon',
  'MultiPolygon',
  'CurvePolygon',
  'MultiSurface',
  'Surface',
  'PolyhedralSurface',
  'TIN',
  'Triangle',
]);
const LINE_TYPES = new Set(['LineString', 'MultiLineString', 'CircularString', 'CompoundCurve', 'MultiCurve', 'Curve']);
const POINT_TYPES = new Set(['Point', 'MultiPoint']);

/** The worker's geometry type names (see gis-worker/geometryType.ts) → what the map draws. */
export function geometryKindOf(geometryType: string | null | undefined): GeometryKind {
  if (!geometryType) return 'mixed';
  if (POLYGON_TYPES.has(geometryType)) return 'polygon';
  if (LINE_TYPES.has(geometryType)) return 'line';
  if (POINT_TYPES.has(geometryType)) return 'point';
  return 'mixed'; // Unknown, Mixed, GeometryCollection, None: draw whatever arrives
}

export function compileLayerStyle(layer: Layer, urls: LayerUrls): CompiledLayerStyle {
  // The layer's kind decides what reaches the map. A raster's stretch is applied by the worker
  // when it renders tiles; a vector layer holding a non-vector style (a mismatch main should
  // never store) falls back to the default look rather than failing.
  const style = layer.style;
  if (layer.kind === 'raster') return compileRaster(layer, urls);
  return compileVector(layer, urls, style.type === 'simple' ? style : defaultVectorStyle(0));
}

function visibility(layer: Layer): 'visible' | 'none' {
  return layer.visible ? 'visible' : 'none';
}

function clampOpacity(value: number): number {
  return Math.min(1, Math.max(0, Number.isFinite(value) ? value : 1));
}

/** `geometry-type` says `MultiPolygon` in current MapLibre and `Polygon` in older ones: match both. */
function geometryFilter(base: 'Point' | 'LineString' | 'Polygon'): FilterSpecification {
  const test: ExpressionSpecification = ['match', ['geometry-type'], [base, `Multi${base}`], true, false];
  return test;
}

function compileVector(layer: Layer, urls: LayerUrls, style: SimpleVectorStyle): CompiledLayerStyle {
  const sourceId = sourceIdFor(layer.id);
  const opacity = clampOpacity(layer.opacity);
  const layout = { visibility: visibility(layer) };
  const kind = geometryKindOf(layer.info.geometryType);
  const mixed = kind === 'mixed';
  const layers: LayerSpecification[] = [];

  if (kind === 'polygon' || mixed) {
    const filter = mixed ? { filter: geometryFilter('Polygon') } : {};
    layers.push({
      id: mapLayerIdFor(layer.id, 'fill'),
      type: 'fill',
      source: sourceId,
      ...filter,
      layout,
      paint: { 'fill-color': style.fill, 'fill-opacity': round(opacity * FILL_OPACITY_FACTOR) },
    });
    layers.push({
      id: mapLayerIdFor(layer.id, 'outline'),
      type: 'line',
      source: sourceId,
      ...filter,
      layout: { ...layout, 'line-join': 'round' },
      paint: { 'line-color': style.stroke, 'line-width': style.strokeWidth, 'line-opacity': opacity },
    });
  }
  if (kind === 'line' || mixed) {
    // A line feature has one colour: the style's main colour (`fill`), not its outline colour.
    layers.push({
      id: mapLayerIdFor(layer.id, 'line'),
      type: 'line',
      source: sourceId,
      ...(mixed ? { filter: geometryFilter('LineString') } : {}),
      layout: { ...layout, 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': style.fill, 'line-width': Math.max(style.strokeWidth, 1.5), 'line-opacity': opacity },
    });
  }
  if (kind === 'point' || mixed) {
    layers.push({
      id: mapLayerIdFor(layer.id, 'circle'),
      type: 'circle',
      source: sourceId,
      ...(mixed ? { filter: geometryFilter('Point') } : {}),
      layout,
      paint: {
        'circle-color': style.fill,
        'circle-radius': style.pointRadius,
        'circle-opacity': opacity,
        'circle-stroke-color': style.stroke,
        'circle-stroke-width': Math.min(style.strokeWidth, style.pointRadius),
        'circle-stroke-opacity': opacity,
      },
    });
  }

  const source: SourceSpecification = { type: 'geojson', data: urls.data(`data/layers/${layer.id}.geojson`) };
  return { sourceId, source, layers };
}

function compileRaster(layer: Layer, urls: LayerUrls): CompiledLayerStyle {
  const sourceId = sourceIdFor(layer.id);
  const bounds = tileBounds(layer.info.extent4326);
  const source: SourceSpecification = {
    type: 'raster',
    tiles: [urls.data(`tiles/${layer.id}/{z}/{x}/{y}.png`)],
    tileSize: 256,
    ...(bounds ? { bounds } : {}),
  };
  return {
    sourceId,
    source,
    layers: [
      {
        id: mapLayerIdFor(layer.id, 'raster'),
        type: 'raster',
        source: sourceId,
        layout: { visibility: visibility(layer) },
        paint: { 'raster-opacity': clampOpacity(layer.opacity), 'raster-fade-duration': 0 },
      },
    ],
  };
}

const MAX_MERCATOR_LAT = 85.051129;

/** Source bounds stop MapLibre asking for tiles that would be empty; invalid extents are dropped. */
function tileBounds(extent: BBox | null): [number, number, number, number] | null {
  if (!extent || !extent.every(Number.isFinite)) return null;
  const [w, s, e, n] = extent;
  if (w > e || s > n) return null;
  const clampLon = (v: number) => Math.min(180, Math.max(-180, v));
  const clampLat = (v: number) => Math.min(MAX_MERCATOR_LAT, Math.max(-MAX_MERCATOR_LAT, v));
  return [clampLon(w), clampLat(s), clampLon(e), clampLat(n)];
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
