/**
 * SQL measures that are planar in the layer's CRS units: on a layer in degrees they give square
 * degrees or degrees. SpatiaLite's ellipsoid forms (`ST_Area(g, 1)`, `ST_Length(g, 1)`,
 * `ST_Distance(a, b, 1)`) and `GeodesicLength` are true measures and are not listed.
 */
const MEASURES: Record<string, { kind: 'area' | 'length'; planarArgs: number }> = {
  st_area: { kind: 'area', planarArgs: 1 },
  area: { kind: 'area', planarArgs: 1 },
  st_length: { kind: 'length', planarArgs: 1 },
  glength: { kind: 'length', planarArgs: 1 },
  st_perimeter: { kind: 'length', planarArgs: 1 },
  perimeter: { kind: 'length', planarArgs: 1 },
  st_distance: { kind: 'length', planarArgs: 2 },
  distance: { kind: 'length', planarArgs: 2 },
};

export interface PlanarMeasure {
  /** The function as written, e.g. `ST_Area`. */
  name: string;
  kind: 'area' | 'length';
}

/** The planar measure calls in an SQL text or expression, in order of appearance. */
export function planarMeasures(text: string): PlanarMeasure[] {
  // Text in quotes is data ('ST_Area(geom)' as a value), not a call.
  const sql = text.replace(/'(?:[^']|'')*'/g, "''");
  const found: PlanarMeasure[] = [];
  const call = /\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
  for (let m = call.exec(sql); m; m = call.exec(sql)) {
    const spec = MEASURES[m[1]!.toLowerCase()];
    if (!spec) continue;
    const { args, text: inner } = callArguments(sql, call.lastIndex);
    // A geometry transformed first is measured in the CRS it was transformed to.
    if (args === spec.planarArgs && !/transform\s*\(/i.test(inner)) found.push({ name: m[1]!, kind: spec.kind });
  }
  return found;
}

/** The top-level argument count and text of the call whose `(` ends just before `start` (nesting skipped). */
function callArguments(text: string, start: number): { args: number; text: string } {
  let depth = 0;
  let args = 1;
  let empty = true;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return { args: empty ? 0 : args, text: text.slice(start, i) };
      depth--;
    } else if (c === ',' && depth === 0) args++;
    if (!/\s/.test(c)) empty = false;
  }
  return { args, text: text.slice(start) };
}

/** Every string inside a call's arguments (expressions, SQL), however deeply nested. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}
