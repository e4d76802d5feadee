import type { SpatialReference } from 'gdal-async';
import type { BBox, CrsInfo } from '../../src-shared/domain/layer.js';
import { gdal } from './gdal.js';

let wgs84Cache: SpatialReference | null = null;

/** EPSG:4326 in lon/lat order (see gdal.ts for why the order is traditional). */
export function wgs84(): SpatialReference {
  wgs84Cache ??= gdal.SpatialReference.fromEPSG(4326);
  return wgs84Cache;
}

export function crsInfo(srs: SpatialReference | null): CrsInfo | null {
  if (!srs) return null;
  return { epsg: epsgCode(srs), name: crsName(srs), geographic: srs.isGeographic() };
}

function epsgCode(srs: SpatialReference): number | null {
  const direct = authorityEpsg(srs);
  if (direct !== null) return direct;
  // ESRI-flavoured WKT (shapefile .prj) often lacks AUTHORITY nodes; GDAL can recognise
  // the common cases (UTM zones, WGS 84, NAD83…) from the parameters.
  try {
    const guess = srs.clone();
    guess.autoIdentifyEPSG();
    return authorityEpsg(guess);
  } catch {
    return null;
  }
}

function authorityEpsg(srs: SpatialReference): number | null {
  try {
    if (srs.getAuthorityName(null)?.toUpperCase() !== 'EPSG') return null;
    const code = Number.parseInt(srs.getAuthorityCode(null), 10);
    return Number.isFinite(code) ? code : null;
  } catch {
    return null;
  }
}

/** The name of the root node: a projected CRS's own name, not its base geographic CRS. */
function crsName(srs: SpatialReference): string | null {
  try {
    const m = /^\s*[A-Z_]+\s*\[\s*"([^"]*)"/.exec(srs.toWKT());
    return m?.[1] || null;
  } catch {
    return null;
  }
}

/**
 * Transforms a bbox by transforming points along its edges, not just its corners: a straight
 * edge in one CRS is a curve in another, and the corners alone can miss the true extent.
 */
export function transformBBox(bbox: BBox, from: SpatialReference, to: SpatialReference, steps = 20): BBox | null {
  let ct;
  try {
    ct = new gdal.CoordinateTransformation(from, to);
  } catch {
    return null;
  }
  const [w, s, e, n] = bbox;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const add = (x: number, y: number): void => {
    try {
      const p = ct.transformPoint(x, y);
      if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return;
      minX = Math.min(minX, p.x);
      maxX = Math.max(maxX, p.x);
      minY = Math.min(minY, p.y);
      maxY = Math.max(maxY, p.y);
    } catch {
      // A point outside the target CRS's domain; the rest of the edge still counts.
    }
  };
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    add(w + (e - w) * t, s);
    add(w + (e - w) * t, n);
    add(w, s + (n - s) * t);
    add(e, s + (n - s) * t);
  }
  return Number.isFinite(minX) ? [minX, minY, maxX, maxY] : null;
}

/** Plausibly lon/lat degrees: used only where a format cannot say what its CRS is (CSV). */
export function looksLikeDegrees(bbox: BBox | null): boolean {
  if (!bbox) return false;
  const [w, s, e, n] = bbox;
  return w >= -180 && e <= 180 && s >= -90 && n <= 90;
}
