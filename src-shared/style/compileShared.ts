import type { Layer } from '../domain/layer.js';

/** Names and small helpers shared by the style compilers. */

export type GeometryKind = 'polygon' | 'line' | 'point' | 'mixed';

export type MapLayerPart = 'fill' | 'outline' | 'line' | 'circle' | 'raster' | 'label' | 'heatmap' | 'extrusion' | 'hillshade';

/** Fill is drawn translucent so what lies beneath stays readable, as GIS desktops do. */
export const FILL_OPACITY_FACTOR = 0.7;

export function sourceIdFor(layerId: string): string {
  return `src-${layerId}`;
}

export function mapLayerIdFor(layerId: string, part: MapLayerPart): string {
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

/**
 * An edited or relocated layer's data revision as a path part (`r3`), or '' for a layer read from its own
 * file. Data URLs carry it only to bust caches: main always serves the layer's current source.
 */
export function dataRevision(layer: Pick<Layer, 'editing' | 'dataRevision'>): string {
  const revision = layer.editing?.revision ?? layer.dataRevision;
  return revision !== undefined ? `r${revision}` : '';
}

export function visibility(layer: Layer): 'visible' | 'none' {
  return layer.visible ? 'visible' : 'none';
}

export function clampOpacity(value: number): number {
  return Math.min(1, Math.max(0, Number.isFinite(value) ? value : 1));
}

export function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** A short, stable hash of a value's JSON (FNV-1a, base 36): tile URLs change when a raster style does. */
export function styleHash(value: unknown): string {
  const text = JSON.stringify(value);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}
