/**
 * OGR geometry type codes to the names the rest of the app uses. Dimension flags (Z, M) are
 * dropped: the map cares whether a layer is points, lines or polygons, not about heights.
 */
const BASE_NAMES: Record<number, string> = {
  0: 'Unknown',
  1: 'Point',
  2: 'LineString',
  3: 'Polygon',
  4: 'MultiPoint',
  5: 'MultiLineString',
  6: 'MultiPolygon',
  7: 'GeometryCollection',
  8: 'CircularString',
  9: 'CompoundCurve',
  10: 'CurvePolygon',
  11: 'MultiCurve',
  12: 'MultiSurface',
  13: 'Curve',
  14: 'Surface',
  15: 'PolyhedralSurface',
  16: 'TIN',
  17: 'Triangle',
  100: 'None',
};

/** The 2D base of an OGR geometry type code: 1 for Point, Point Z, Point M, Point 25D, … */
export function flatGeometryType(code: number): number {
  // Old-style 2.5D types set the high bit (negative as int32); ISO types add 1000/2000/3000.
  return (code & 0x7fffffff) % 1000;
}

export function geometryTypeName(code: number): string {
  return BASE_NAMES[flatGeometryType(code)] ?? 'Unknown';
}

const WKT_NAMES: Record<string, string> = Object.fromEntries(Object.values(BASE_NAMES).map((name) => [name.toUpperCase(), name]));

/**
 * The type of a layer whose header says "Unknown", from the distinct geometry names its
 * features actually carry (OGR SQL's OGR_GEOMETRY: 'POLYGON', 'MULTIPOLYGON', …).
 * Single and multi forms of one kind draw the same, so they merge into the multi form.
 */
export function summariseGeometryTypes(wktNames: Iterable<string | null>): string {
  const names = new Set<string>();
  for (const raw of wktNames) {
    if (!raw) continue; // NULL geometries say nothing about the layer's type
    names.add(
      WKT_NAMES[
        raw
          .trim()
          .toUpperCase()
          .replace(/\s*(ZM|Z|M)$/, '')
      ] ?? 'Unknown',
    );
  }
  if (names.size === 0) return 'Unknown';
  if (names.size === 1) return [...names][0]!;
  for (const base of ['Point', 'LineString', 'Polygon']) {
    const multi = `Multi${base}`;
    if (names.size === 2 && names.has(base) && names.has(multi)) return multi;
  }
  return 'Mixed';
}
