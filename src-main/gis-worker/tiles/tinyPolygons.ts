/**
 * geojson-vt drops a polygon whose rings fall below its simplification tolerance — at low
 * zooms, every small polygon: a million parcels would draw nothing until zoomed far in. As
 * tippecanoe does, a polygon smaller than `minUnits` tile units across is drawn instead as a
 * square of that size at its centre, so the layer stays visible and its density readable.
 * Coordinates are lon/lat; sizes are compared in Web Mercator tile units of zoom `z`.
 */

type Position = number[];
interface PolygonFeature {
  geometry: { type: string; coordinates: unknown } | null;
}

const EXTENT = 4096;

function mercatorX(lon: number): number {
  return lon / 360 + 0.5;
}
function mercatorY(lat: number): number {
  const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
}
function lonOf(x: number): number {
  return (x - 0.5) * 360;
}
function latOf(y: number): number {
  return (Math.atan(Math.exp((0.5 - y) * 2 * Math.PI)) * 360) / Math.PI - 90;
}

/** Replaces polygons smaller than `minUnits` (tile units at zoom z) by squares of that size; returns how many. */
export function inflateTinyPolygons(features: PolygonFeature[], z: number, minUnits = 8): number {
  const scale = 2 ** z * EXTENT;
  let replaced = 0;
  for (const f of features) {
    const g = f.geometry;
    if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) continue;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    const rings = g.type === 'Polygon' ? (g.coordinates as Position[][]) : (g.coordinates as Position[][][]).flat();
    for (const ring of rings) {
      for (const p of ring) {
        const x = mercatorX(p[0]!);
        const y = mercatorY(p[1]!);
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
    if (!Number.isFinite(minX) || (maxX - minX) * scale >= minUnits || (maxY - minY) * scale >= minUnits) continue;
    const half = minUnits / scale / 2;
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    const [w, e, n, s] = [lonOf(cx - half), lonOf(cx + half), latOf(cy - half), latOf(cy + half)];
    f.geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ],
    };
    replaced++;
  }
  return replaced;
}
