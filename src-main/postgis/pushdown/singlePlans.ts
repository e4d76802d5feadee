import { aggregate } from '../../../src-shared/processing/attributeAlgorithms.js';
import { areaLength, dissolve } from '../../../src-shared/processing/geometryAlgorithms.js';
import { buffer } from '../../../src-shared/processing/vectorAlgorithms.js';
import { parseParams } from './params.js';
import {
  type Dimension,
  type InputInfo,
  inRange,
  MULTI,
  type OutputColumn,
  type Plan,
  selectList,
  columnsOf,
  validGeom,
  extractType,
} from './plan.js';
import { isNumeric, NameAllocator, type PgField, resolveFields } from './pgFields.js';
import { ident } from './pgIdent.js';
import { PushdownError } from './types.js';

/**
 * One-layer algorithms as SQL, mirroring the worker's buffer.ts, aggregate.ts and measure.ts:
 * the same params, output fields and types, and the same GEOS operations (PostGIS and
 * SpatiaLite both call GEOS).
 */

type Params = Record<string, unknown>;

const present = (g: string) => `${g} IS NOT NULL AND NOT ST_IsEmpty(${g})`;
const skipped = (a: InputInfo) => `SELECT COUNT(*) AS n FROM ${a.from} AS a WHERE a.${a.geom} IS NULL OR ST_IsEmpty(a.${a.geom})`;

export function bufferPlan([a]: InputInfo[], params: Params): Plan {
  const p = parseParams(buffer, params);
  // The worker's refusal, word for word: a distance on a degree layer would be degrees.
  if (a!.geographic)
    throw new PushdownError('invalid_params', `${a!.label} is in degrees (a geographic CRS); a buffer needs a projected CRS in metres`);
  const g = `a.${a!.geom}`;
  const grown = (b: Parameters<Plan['select']>[0]) =>
    `ST_Multi(ST_Buffer(${g}, ${b.bind(p.distance, 'float8')}, ${b.bind(`quad_segs=${Math.round(p.segments)}`, 'text')}))`;
  if (p.dissolve) {
    return {
      columns: [],
      geometryType: 'MultiPolygon',
      prepare: [],
      chunkBy: null,
      // No row at all for an input without geometries (rather than one empty feature).
      select: (b) => `SELECT ST_Multi(ST_Union(${grown(b)})) AS geom FROM ${a!.from} AS a WHERE ${present(g)} HAVING COUNT(*) > 0`,
      verb: 'Buffering and merging all features',
      notes: [],
      skippedSql: skipped(a!),
    };
  }
  return {
    columns: columnsOf(a!.fields),
    geometryType: 'MultiPolygon',
    prepare: [],
    chunkBy: a!.key ? { from: a!.from, key: a!.key } : null,
    select: (b, range) =>
      `SELECT ${[...selectList('a', a!.fields), `${grown(b)} AS geom`].join(', ')} FROM ${a!.from} AS a WHERE ${present(g)}${inRange(a!.key && `a.${a!.key}`, range)}`,
    verb: 'Buffered',
    notes: [],
    skippedSql: skipped(a!),
  };
}

/** ST_UnaryUnion(ST_Collect(…)): GEOS's cascaded union, as the worker's dissolve. */
const merged = (a: InputInfo, d: Dimension) =>
  `ST_Multi(ST_CollectionExtract(ST_UnaryUnion(ST_Collect(${validGeom(`a.${a.geom}`, d)})), ${extractType(d)}))`;

const GROUPS = 'mapwright_pushdown_groups';

/**
 * GROUP BY in batches of groups: a temporary table numbers each row's group (dense_rank over
 * the group fields, NULLs one group as GROUP BY has them), and each chunk unions only its own
 * groups, so progress moves and Stop lands between batches. Without a key, or without group
 * fields, one pass.
 */
function groupedPlan(
  a: InputInfo,
  groupBy: PgField[],
  columns: OutputColumn[],
  aggregates: string[],
  geometryType: string | null,
  verb: string,
): Plan {
  const cols = groupBy.map((f) => `a.${ident(f.name)}`);
  const chunked = cols.length > 0 && a.key !== null;
  const select = (range: { lo: string; hi: string } | null) => {
    const list = [...cols, ...aggregates].join(', ');
    if (!chunked) return `SELECT ${list} FROM ${a.from} AS a${cols.length ? ` GROUP BY ${cols.join(', ')}` : ''} HAVING COUNT(*) > 0`;
    return (
      `SELECT ${list} FROM ${a.from} AS a JOIN pg_temp.${ident(GROUPS)} AS grp ON grp.k = a.${a.key}` +
      `${range ? ` WHERE grp.n BETWEEN ${range.lo} AND ${range.hi}` : ''} GROUP BY grp.n, ${cols.join(', ')} ORDER BY grp.n`
    );
  };
  return {
    columns,
    geometryType,
    prepare: chunked
      ? [
          {
            sql: `CREATE TEMPORARY TABLE ${ident(GROUPS)} ON COMMIT DROP AS SELECT a.${a.key} AS k, dense_rank() OVER (ORDER BY ${cols.join(', ')}) AS n FROM ${a.from} AS a`,
          },
        ]
      : [],
    chunkBy: chunked ? { from: `pg_temp.${ident(GROUPS)}`, key: 'n' } : null,
    select: (_b, range) => select(range),
    verb,
    notes: [],
  };
}

export function dissolvePlan([a]: InputInfo[], params: Params): Plan {
  const p = parseParams(dissolve, params);
  const groupBy = p.by ? resolveFields(p.by, a!.fields, 'by', a!.label) : [];
  const count = new NameAllocator(groupBy.map((f) => f.name)).take('feature_count');
  const d = a!.dimension ?? 2;
  return groupedPlan(
    a!,
    groupBy,
    [...columnsOf(groupBy), { name: count, sqlType: 'integer' }],
    [`COUNT(*)::integer`, `${merged(a!, d)} AS geom`],
    MULTI[d],
    'Dissolving',
  );
}

export function aggregatePlan([a]: InputInfo[], params: Params): Plan {
  const p = parseParams(aggregate, params);
  const groupBy = resolveFields(p.group_by, a!.fields, 'group_by', a!.label);
  const fields = p.fields ? resolveFields(p.fields, a!.fields, 'fields', a!.label) : [];
  const names = new NameAllocator(groupBy.map((f) => f.name));
  const columns: OutputColumn[] = [...columnsOf(groupBy), { name: names.take('count'), sqlType: 'integer' }];
  const aggregates = ['COUNT(*)::integer'];
  for (const field of fields) {
    for (const stat of p.statistics) {
      if ((stat === 'sum' || stat === 'mean') && !isNumeric(field))
        throw new PushdownError('invalid_params', `'fields': ${field.name} is ${field.sqlType}; ${stat} needs a numeric field`);
      const f = `a.${ident(field.name)}`;
      const [sql, type] = statSql(stat, f, field);
      columns.push({ name: names.take(`${field.name}_${stat}`), sqlType: type });
      aggregates.push(sql);
    }
  }
  const withGeometry = p.geometry === 'dissolve';
  const d = a!.dimension ?? 2;
  if (withGeometry) aggregates.push(`${merged(a!, d)} AS geom`);
  return groupedPlan(a!, groupBy, columns, aggregates, withGeometry ? MULTI[d] : null, 'Aggregating');
}

/** The worker's statType: counts integer, means real, integer sums 64-bit, min/max as the field. */
export function statSql(stat: 'sum' | 'mean' | 'min' | 'max' | 'count', f: string, field: PgField): [string, string] {
  if (stat === 'count') return [`COUNT(${f})::integer`, 'integer'];
  if (stat === 'mean') return [`AVG(${f})::float8`, 'double precision'];
  if (stat === 'sum') return field.kind === 'real' ? [`SUM(${f})::float8`, 'double precision'] : [`SUM(${f})::bigint`, 'bigint'];
  return [`${stat.toUpperCase()}(${f})`, field.sqlType];
}

export function areaLengthPlan([a]: InputInfo[], params: Params): Plan {
  const p = parseParams(areaLength, params);
  if (a!.dimension === 0) throw new PushdownError('invalid_params', `${a!.label} holds points; areas and lengths need lines or polygons`);
  if (a!.srid === 0)
    throw new PushdownError('invalid_params', `${a!.label} has no CRS, so true areas and lengths cannot be known; set its CRS first`);
  // Geodesic on the WGS 84 ellipsoid after transforming to EPSG:4326, as the worker measures.
  const geog = `geography(ST_Transform(a.${a!.geom}, 4326))`;
  const area = { m2: 1, ha: 1e4, km2: 1e6 }[p.area_unit];
  const length = { m: 1, km: 1e3 }[p.length_unit];
  const added =
    a!.dimension === 2
      ? [
          { name: `area_${p.area_unit}`, sql: (b: Parameters<Plan['select']>[0]) => `ST_Area(${geog}, true) / ${b.bind(area, 'float8')}` },
          {
            name: `perimeter_${p.length_unit}`,
            sql: (b: Parameters<Plan['select']>[0]) => `ST_Perimeter(${geog}, true) / ${b.bind(length, 'float8')}`,
          },
        ]
      : [
          {
            name: `length_${p.length_unit}`,
            sql: (b: Parameters<Plan['select']>[0]) => `ST_Length(${geog}, true) / ${b.bind(length, 'float8')}`,
          },
        ];
  const addedNames = new Set(added.map((x) => x.name.toLowerCase()));
  const kept = a!.fields.filter((f) => !addedNames.has(f.name.toLowerCase()));
  const notes = [
    a!.dimension === 2
      ? `area_${p.area_unit}: geodesic area on the WGS 84 ellipsoid; perimeter_${p.length_unit}: geodesic length of the rings on WGS 84`
      : `length_${p.length_unit}: geodesic length on the WGS 84 ellipsoid`,
  ];
  if (kept.length < a!.fields.length) notes.push('Existing fields of the same name were replaced');
  return {
    columns: [...columnsOf(kept), ...added.map((x) => ({ name: x.name, sqlType: 'double precision' }))],
    geometryType: a!.typmod,
    prepare: [],
    chunkBy: a!.key ? { from: a!.from, key: a!.key } : null,
    select: (b, range) =>
      `SELECT ${[...selectList('a', kept), ...added.map((x) => `${x.sql(b)} AS ${ident(x.name)}`), `a.${a!.geom} AS geom`].join(', ')} ` +
      `FROM ${a!.from} AS a WHERE true${inRange(a!.key && `a.${a!.key}`, range)}`,
    verb: 'Measuring',
    notes,
  };
}
