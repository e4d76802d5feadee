import type { BBox } from '../../src-shared/domain/layer.js';

/** Half the width of the Web Mercator world (EPSG:3857), in metres. */
export const MERCATOR_HALF = 20037508.342789244;
const EARTH_RADIUS = 6378137;
/** Web Mercator stops here: the latitude where the square world ends. */
export const MAX_MERCATOR_LAT = 85.0511287798066;

/** XYZ tile bounds in EPSG:3857 (y counts down from the top); null for a tile outside the grid. */
export function tileBounds(z: number, x: number, y: number): BBox | null {
  const n = 2 ** z;
  if (x < 0 || y < 0 || x >= n || y >= n) return null;
  const size = (2 * MERCATOR_HALF) / n;
  const west = -MERCATOR_HALF + x * size;
  const north = MERCATOR_HALF - y * size;
  return [west, north - size, west + size, north];
}

export function lonLatToMercator(lon: number, lat: number): [number, number] {
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const x = (lon * Math.PI * EARTH_RADIUS) / 180;
  const y = EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360));
  return [x, y];
}

/** The inverse of lonLatToMercator. */
export function mercatorToLonLat(x: number, y: number): [number, number] {
  const lon = (x / MERCATOR_HALF) * 180;
  const lat = (Math.atan(Math.exp((y / MERCATOR_HALF) * Math.PI)) * 360) / Math.PI - 90;
  return [lon, lat];
}

/** A lon/lat bbox as Web Mercator; parts beyond ±85.05° are squeezed onto the edge. */
export function mercatorExtent(bbox4326: BBox): BBox {
  const [w, s] = lonLatToMercator(bbox4326[0], bbox4326[1]);
  const [e, n] = lonLatToMercator(bbox4326[2], bbox4326[3]);
  return [w, s, e, n];
}

/** True when the two boxes share some area (touching edges do not count). */
export function intersects(a: BBox, b: BBox): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}
