import * as geodesicModule from 'geographiclib-geodesic';

/**
 * Geodesic lengths and areas on the WGS84 ellipsoid (issue #15's measure tool), with
 * GeographicLib (Karney's algorithms: accurate to nanometres at any distance, where a
 * spherical haversine is off by up to 0.5 %). Points are [lon, lat] in degrees, as the map
 * gives them. Pure: no map, no DOM.
 */

// The package is CommonJS: Node's ESM loader (tests) puts its exports under `default` only,
// esbuild (the renderer bundle) copies them onto the namespace as well.
const lib = (geodesicModule as unknown as { default?: typeof geodesicModule }).default ?? geodesicModule;
const { Geodesic, PolygonArea } = lib;

export type LonLat = [number, number];

/** The length of each segment between consecutive points, in metres. */
export function segmentLengths(points: readonly LonLat[]): number[] {
  const lengths: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const [lon1, lat1] = points[i - 1]!;
    const [lon2, lat2] = points[i]!;
    lengths.push(Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE).s12 ?? 0);
  }
  return lengths;
}

/** The length of the path through the points, in metres (0 for fewer than two). */
export function pathLength(points: readonly LonLat[]): number {
  return segmentLengths(points).reduce((sum, s) => sum + s, 0);
}

/**
 * The area (m²) and perimeter (m) of the polygon the points enclose, its ring closed back to
 * the first point. Either winding gives the same positive area; fewer than three points
 * enclose nothing.
 */
export function polygonArea(points: readonly LonLat[]): { area: number; perimeter: number } {
  if (points.length < 3) return { area: 0, perimeter: points.length === 2 ? 2 * pathLength(points) : 0 };
  const polygon = new PolygonArea.PolygonArea(Geodesic.WGS84, false);
  for (const [lon, lat] of points) polygon.AddPoint(lat, lon);
  // sign = true: a clockwise ring comes back negative rather than as the rest of the Earth.
  const { area = 0, perimeter } = polygon.Compute(false, true);
  return { area: Math.abs(area), perimeter };
}
