import {
  clip,
  countPointsInPolygons,
  difference,
  intersection,
  selectByLocation,
  spatialJoin,
} from '../../../src-shared/processing/overlayAlgorithms.js';
import { inCrsOf, reprojectedNote } from './inputInfo.js';
import { parseParams } from './params.js';
import {
  type Binder,
  columnsOf,
  type Dimension,
  dimensionName,
  extractType,
  type InputInfo,
  inRange,
  MULTI,
  type Plan,
  selectList,
  validGeom,
} from './plan.js';
import { isNumeric, NameAllocator, resolveFields } from './pgFields.js';
import { ident } from './pgIdent.js';
import { statSql } from './singlePlans.js';
import { PushdownError } from './types.js';

/**
 * Two-layer algorithms as SQL, mirroring the worker's overlay.ts, selection.ts and
 * spatialJoin.ts: the second layer in the first one's CRS, made valid where the worker makes it
 * valid, found through its GiST index (`&&`) for each feature of the first, which is read in
 * key ranges. `OFFSET 0` keeps a LATERAL computed once per row: without it PostgreSQL pulls the
 * expression up into every place that names it.
 */

type Params = Record<string, unknown>;

const B_COPY = 'mapwright_pushdown_b';
const PIECES = 'mapwright_pushdown_pieces';
/** GEOS work per test stays small: the worker's CLIP_PIECE_VERTICES. */
const PIECE_VERTICES = 256;

function requirePolygons(layer: InputInfo, param: string): void {
  if (layer.dimension !== 2)
    throw new PushdownError('invalid_params', `'${param}' must be a polygon layer; ${layer.label} holds ${dimensionName(layer.dimension)}`);
}

const chunkOf = (a: InputInfo): Plan['chunkBy'] => (a.key ? { from: a.from, key: a.key } : null);
const range = (a: InputInfo, r: { lo: string; hi: string } | null) => inRange(a.key && `a.${a.key}`, r);
const present = (g: string) => `${g} IS NOT NULL AND NOT ST_IsEmpty(${g})`;

/** b in a's CRS, and the note saying so. */
function second(a: InputInfo, b: InputInfo): { b: InputInfo; prepare: Plan['prepare']; notes: string[] } {
  const notes = reprojectedNote(a, b);
  const { info, prepare } = inCrsOf(b, a.srid, B_COPY);
  return { b: info, prepare, notes };
}

/**
 * Clip: the overlay merged into one area, cut by ST_Subdivide into pieces of at most 256
 * vertices with a GiST index (as the worker's stageDissolved). Each input feature meets a few
 * pieces: one that covers it keeps it whole, the others are intersected, and the pieces of
 * one feature are merged again.
 */
export function clipPlan([a, b]: InputInfo[], params: Params): Plan {
  parseParams(clip, params);
  requirePolygons(b!, 'overlay');
  const d = a!.dimension ?? 2;
  const k = extractType(d);
  const bg = a!.srid !== b!.srid && a!.srid !== 0 && b!.srid !== 0 ? `ST_Transform(b.${b!.geom}, ${Number(a!.srid)})` : `b.${b!.geom}`;
  const pieces = `pg_temp.${ident(PIECES)}`;
  const piece = `CASE WHEN ST_Covers(u.geom, v.g) THEN v.g WHEN ST_Intersects(u.geom, v.g) THEN ST_CollectionExtract(ST_Intersection(v.g, u.geom), ${k}) END`;
  return {
    columns: columnsOf(a!.fields),
    geometryType: MULTI[d],
    prepare: [
      {
        sql:
          `CREATE TEMPORARY TABLE ${ident(PIECES)} ON COMMIT DROP AS SELECT ST_Subdivide(u, ${PIECE_VERTICES}) AS geom ` +
          `FROM (SELECT ST_UnaryUnion(ST_Collect(${validGeom(bg, 2)})) AS u FROM ${b!.from} AS b) AS m WHERE u IS NOT NULL`,
      },
      { sql: `CREATE INDEX ON ${pieces} USING gist (geom)` },
      { sql: `ANALYZE ${pieces}` },
    ],
    chunkBy: chunkOf(a!),
    select: (_b, r) =>
      `SELECT ${[...selectList('a', a!.fields), 'o.g AS geom'].join(', ')} FROM ${a!.from} AS a ` +
      `CROSS JOIN LATERAL (SELECT ${validGeom(`a.${a!.geom}`, d)} AS g OFFSET 0) AS v ` +
      `CROSS JOIN LATERAL (SELECT CASE WHEN COUNT(x.p) > 1 THEN ST_UnaryUnion(ST_Collect(x.p)) ELSE ST_Collect(x.p) END AS cut ` +
      `FROM (SELECT ${piece} AS p FROM ${pieces} AS u WHERE u.geom && v.g) AS x) AS c ` +
      `CROSS JOIN LATERAL (SELECT ST_Multi(ST_CollectionExtract(c.cut, ${k})) AS g OFFSET 0) AS o ` +
      `WHERE ${present(`a.${a!.geom}`)}${range(a!, r)} AND ${present('o.g')}`,
    verb: 'Clipping',
    notes: reprojectedNote(a!, b!),
  };
}

/** Difference: each feature less the union of the overlay polygons it meets; wholly covered ones are dropped. */
export function differencePlan([a, bIn]: InputInfo[], params: Params): Plan {
  parseParams(difference, params);
  requirePolygons(bIn!, 'overlay');
  const { b, prepare, notes } = second(a!, bIn!);
  const d = a!.dimension ?? 2;
  const vb = validGeom(`b.${b.geom}`, 2);
  return {
    columns: columnsOf(a!.fields),
    geometryType: MULTI[d],
    prepare,
    chunkBy: chunkOf(a!),
    select: (_b, r) =>
      `SELECT ${[...selectList('a', a!.fields), 'o.g AS geom'].join(', ')} FROM ${a!.from} AS a ` +
      `CROSS JOIN LATERAL (SELECT ${validGeom(`a.${a!.geom}`, d)} AS g OFFSET 0) AS v ` +
      `CROSS JOIN LATERAL (SELECT ST_UnaryUnion(ST_Collect(${vb})) AS u FROM ${b.from} AS b WHERE b.${b.geom} && v.g AND ST_Intersects(v.g, ${vb})) AS x ` +
      `CROSS JOIN LATERAL (SELECT CASE WHEN x.u IS NULL THEN ST_Multi(v.g) ELSE ST_Multi(ST_CollectionExtract(ST_Difference(v.g, x.u), ${extractType(d)})) END AS g OFFSET 0) AS o ` +
      `WHERE a.${a!.geom} IS NOT NULL${range(a!, r)} AND ${present('o.g')}`,
    verb: 'Cutting',
    notes,
  };
}

/** Intersection: one piece per overlapping pair, both layers' fields (the overlay's renamed on a clash). */
export function intersectionPlan([a, bIn]: InputInfo[], params: Params): Plan {
  const p = parseParams(intersection, params);
  const kept = p.overlay_fields ? resolveFields(p.overlay_fields, bIn!.fields, 'overlay_fields', bIn!.label) : bIn!.fields;
  const { b, prepare, notes } = second(a!, { ...bIn!, fields: kept });
  const dim = Math.min(a!.dimension ?? 2, b.dimension ?? 2) as Dimension;
  const names = new NameAllocator(a!.fields.map((f) => f.name));
  const bNames = b.fields.map((f) => names.take(f.name));
  const renamed = b.fields.map((f, i) => [f.name, bNames[i]!] as const).filter(([from, to]) => from !== to);
  if (renamed.length) notes.push(`Overlay fields renamed to avoid clashes: ${renamed.map(([f, t]) => `${f} → ${t}`).join(', ')}`);
  return {
    columns: [...columnsOf(a!.fields), ...columnsOf(b.fields, bNames)],
    geometryType: MULTI[dim],
    prepare,
    chunkBy: chunkOf(a!),
    select: (_b, r) =>
      `SELECT ${[...selectList('a', a!.fields), ...selectList('b', b.fields), 'o.g AS geom'].join(', ')} FROM ${a!.from} AS a ` +
      `CROSS JOIN LATERAL (SELECT ${validGeom(`a.${a!.geom}`, a!.dimension ?? 2)} AS g OFFSET 0) AS va ` +
      `JOIN ${b.from} AS b ON b.${b.geom} && va.g ` +
      `CROSS JOIN LATERAL (SELECT ${validGeom(`b.${b.geom}`, b.dimension ?? 2)} AS g OFFSET 0) AS vb ` +
      `CROSS JOIN LATERAL (SELECT ST_Multi(ST_CollectionExtract(ST_Intersection(va.g, vb.g), ${extractType(dim)})) AS g OFFSET 0) AS o ` +
      `WHERE a.${a!.geom} IS NOT NULL${range(a!, r)} AND ST_Intersects(va.g, vb.g) AND ${present('o.g')}`,
    verb: 'Intersecting',
    notes,
  };
}

const RELATION = {
  intersects: (x: string, y: string) => `ST_Intersects(${x}, ${y})`,
  within: (x: string, y: string) => `ST_Within(${x}, ${y})`,
  contains: (x: string, y: string) => `ST_Contains(${x}, ${y})`,
} as const;

/** b's rows related to a's feature (b made valid, as the worker stages it), found by b's index. */
function relatedTo(a: InputInfo, b: InputInfo, predicate: keyof typeof RELATION): string {
  const ag = `a.${a.geom}`;
  return `b.${b.geom} && ${ag} AND ${RELATION[predicate](ag, validGeom(`b.${b.geom}`, b.dimension ?? 2))}`;
}

/** Select by location: the features of input unchanged, where some (or, disjoint, no) overlay feature relates. */
export function selectByLocationPlan([a, bIn]: InputInfo[], params: Params): Plan {
  const p = parseParams(selectByLocation, params);
  const { b, prepare, notes } = second(a!, bIn!);
  const exists = `EXISTS (SELECT 1 FROM ${b.from} AS b WHERE ${relatedTo(a!, b, p.predicate === 'disjoint' ? 'intersects' : p.predicate)})`;
  const test = p.predicate === 'disjoint' ? `NOT ${exists}` : exists;
  return {
    columns: columnsOf(a!.fields),
    geometryType: a!.typmod,
    prepare,
    chunkBy: chunkOf(a!),
    select: (_b, r) =>
      `SELECT ${[...selectList('a', a!.fields), `a.${a!.geom} AS geom`].join(', ')} FROM ${a!.from} AS a ` +
      `WHERE a.${a!.geom} IS NOT NULL${range(a!, r)} AND ${test}`,
    verb: `Testing ${p.predicate}`,
    notes,
  };
}

/**
 * Spatial join: mode first takes the related join feature of lowest key (a LATERAL … ORDER BY
 * key LIMIT 1); mode summary a LATERAL aggregate (join_count, then <field>_<stat> of the
 * numeric join fields). Input geometries and fields unchanged.
 */
export function spatialJoinPlan([a, bIn]: InputInfo[], params: Params): Plan {
  const p = parseParams(spatialJoin, params);
  const wanted = p.fields ? resolveFields(p.fields, bIn!.fields, 'fields', bIn!.label) : bIn!.fields;
  const { b, prepare, notes } = second(a!, { ...bIn!, fields: wanted });
  const names = new NameAllocator(a!.fields.map((f) => f.name));
  const where = relatedTo(a!, b, p.predicate);
  const join = p.keep_unmatched ? 'LEFT JOIN LATERAL' : 'JOIN LATERAL';
  const aCols = selectList('a', a!.fields);
  if (p.mode === 'first') {
    const bNames = b.fields.map((f) => names.take(f.name));
    if (!b.key) notes.push(`${b.label} has no integer primary key: "first" is the first match the database finds`);
    const inner = b.fields.map((f, i) => `b.${ident(f.name)} AS c${i}`);
    return {
      columns: [...columnsOf(a!.fields), ...columnsOf(b.fields, bNames)],
      geometryType: a!.typmod,
      prepare,
      chunkBy: chunkOf(a!),
      select: (_b, r) =>
        `SELECT ${[...aCols, ...b.fields.map((_f, i) => `m.c${i}`), `a.${a!.geom} AS geom`].join(', ')} FROM ${a!.from} AS a ` +
        `${join} (SELECT ${inner.length ? inner.join(', ') : '1 AS c'} FROM ${b.from} AS b WHERE ${where}${b.key ? ` ORDER BY b.${b.key}` : ''} LIMIT 1) AS m ON true ` +
        `WHERE true${range(a!, r)}`,
      verb: 'Joining',
      notes,
    };
  }
  const numeric = b.fields.filter(isNumeric);
  const skipped = b.fields.filter((f) => !isNumeric(f)).map((f) => f.name);
  if (p.fields && skipped.length) notes.push(`Summary mode summarises numeric fields only; skipped: ${skipped.join(', ')}`);
  const countName = names.take('join_count');
  const stats = numeric.flatMap((f) =>
    p.statistics.map((stat) => ({ name: names.take(`${f.name}_${stat}`), sql: statSql(stat, `b.${ident(f.name)}`, f) })),
  );
  return {
    columns: [...columnsOf(a!.fields), { name: countName, sqlType: 'integer' }, ...stats.map((s) => ({ name: s.name, sqlType: s.sql[1] }))],
    geometryType: a!.typmod,
    prepare,
    chunkBy: chunkOf(a!),
    select: (_b, r) =>
      `SELECT ${[...aCols, 's.n', ...stats.map((_s, i) => `s.c${i}`), `a.${a!.geom} AS geom`].join(', ')} FROM ${a!.from} AS a ` +
      `CROSS JOIN LATERAL (SELECT ${['COUNT(*)::integer AS n', ...stats.map((s, i) => `${s.sql[0]} AS c${i}`)].join(', ')} FROM ${b.from} AS b WHERE ${where}) AS s ` +
      `WHERE true${range(a!, r)}${p.keep_unmatched ? '' : ' AND s.n > 0'}`,
    verb: 'Joining',
    notes,
  };
}

/** Count points in polygons: the points on or inside each polygon (or the sum of a weight field), as a new field. */
export function countPointsPlan([a, bIn]: InputInfo[], params: Params): Plan {
  const p = parseParams(countPointsInPolygons, params);
  if (a!.dimension !== 2)
    throw new PushdownError('invalid_params', `'input' must be a polygon layer; ${a!.label} holds ${dimensionName(a!.dimension)}`);
  if (bIn!.dimension !== 0)
    throw new PushdownError('invalid_params', `'points' must be a point layer; ${bIn!.label} holds ${dimensionName(bIn!.dimension)}`);
  const weight = p.weight_field ? resolveFields([p.weight_field], bIn!.fields, 'weight_field', bIn!.label)[0]! : null;
  if (weight && !isNumeric(weight))
    throw new PushdownError('invalid_params', `'weight_field': ${weight.name} is ${weight.sqlType}, not a number`);
  const { b, prepare, notes } = second(a!, { ...bIn!, fields: weight ? [weight] : [] });
  const kept = a!.fields.filter((f) => f.name.toLowerCase() !== p.field_name.toLowerCase());
  if (kept.length < a!.fields.length) notes.push(`The existing field ${p.field_name} was replaced by the count`);
  const measure = weight ? `COALESCE(SUM(b.${ident(weight.name)}), 0)::float8` : 'COUNT(*)::integer';
  return {
    columns: [...columnsOf(kept), { name: p.field_name, sqlType: weight ? 'double precision' : 'integer' }],
    geometryType: a!.typmod,
    prepare,
    chunkBy: chunkOf(a!),
    select: (_b: Binder, r) =>
      `SELECT ${[...selectList('a', kept), `(SELECT ${measure} FROM ${b.from} AS b WHERE b.${b.geom} && a.${a!.geom} AND ST_Intersects(a.${a!.geom}, b.${b.geom}))`, `a.${a!.geom} AS geom`].join(', ')} ` +
      `FROM ${a!.from} AS a WHERE true${range(a!, r)}`,
    verb: 'Counting points',
    notes,
  };
}
