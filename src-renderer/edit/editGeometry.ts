import type { Geometry, LineString, Point, Polygon, Position } from 'geojson';
import { geometryKindOf } from '../../src-shared/style/compileShared.js';

/**
 * Pure helpers of the map's editing toolbar: which drawing tools a layer offers and how a
 * feature's geometry goes into terra-draw (which edits single Points, LineStrings and Polygons
 * without holes, at a bounded coordinate precision).
 */

export type DrawTool = 'point' | 'linestring' | 'polygon';

/** Decimal places terra-draw keeps (its adapters' default); a finer coordinate is refused by its validation. */
export const COORDINATE_PRECISION = 9;

/**
 * The draw tools for a layer's geometry type. A Multi* layer takes the single geometry (main
 * promotes it); a layer of unknown or mixed type may take any.
 */
export function drawToolsFor(geometryType: string | null): DrawTool[] {
  const kind = geometryKindOf(geometryType);
  if (kind === 'polygon') return ['polygon'];
  if (kind === 'line') return ['linestring'];
  if (kind === 'point') return ['point'];
  return ['point', 'linestring', 'polygon'];
}

export type ReshapeGeometry = { mode: DrawTool; geometry: Point | LineString | Polygon };

const round = (p: Position): Position => p.map((v) => Number(v.toFixed(COORDINATE_PRECISION)));

/** Drops points equal to the one before (rounding may make neighbours equal; terra-draw refuses those). */
function dedupe(ring: Position[]): Position[] {
  return ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1]![0] || p[1] !== ring[i - 1]![1]);
}

/**
 * A feature's geometry (EPSG:4326, from `layers/features`) as terra-draw can edit it, or the
 * reason it cannot: a multi-part geometry of one part is unwrapped, more parts or holes are refused.
 */
export function toReshapeGeometry(geometry: unknown): ReshapeGeometry | { error: string } {
  const g = geometry as Geometry | null;
  if (!g || typeof g !== 'object' || !('type' in g)) return { error: 'The feature has no geometry to reshape.' };
  const single = (type: string, parts: unknown[]) => (parts.length === 1 ? ({ type, coordinates: parts[0] } as Geometry) : null);
  const one =
    g.type === 'MultiPolygon'
      ? single('Polygon', g.coordinates)
      : g.type === 'MultiLineString'
        ? single('LineString', g.coordinates)
        : g.type === 'MultiPoint'
          ? single('Point', g.coordinates)
          : g;
  if (!one) return { error: 'Only single-part features can be reshaped on the map; this one has several parts.' };
  if (one.type === 'Point') return { mode: 'point', geometry: { type: 'Point', coordinates: round(one.coordinates) } };
  if (one.type === 'LineString')
    return { mode: 'linestring', geometry: { type: 'LineString', coordinates: dedupe(one.coordinates.map(round)) } };
  if (one.type === 'Polygon') {
    if (one.coordinates.length !== 1) return { error: 'Polygons with holes cannot be reshaped on the map.' };
    return { mode: 'polygon', geometry: { type: 'Polygon', coordinates: [dedupe(one.coordinates[0]!.map(round))] } };
  }
  return { error: `A ${one.type} cannot be reshaped on the map.` };
}
