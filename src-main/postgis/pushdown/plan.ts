import { ident } from './pgIdent.js';
import type { PgField } from './pgFields.js';
import type { PgInput } from './types.js';

/**
 * What an algorithm's SQL builder (pushdownSql.ts) hands the runner: the output's columns, the
 * statements to run before filling it, and the SELECT that fills it for one key range of the
 * driving table. The runner owns the transaction, the output table, progress and Stop.
 */

/** Bind parameters of one statement: every value goes through `bind`, never into the text. */
export class Binder {
  readonly values: unknown[] = [];

  bind(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

export type Dimension = 0 | 1 | 2;

/** One input as the builders read it. */
export interface InputInfo extends PgInput {
  /** `schema.table` for messages. */
  label: string;
  /** The table (or its staged copy) in SQL: already quoted. */
  from: string;
  /** Geometry column, quoted. */
  geom: string;
  /** Key column, quoted, or null. */
  key: string | null;
  fields: PgField[];
  /** 0 points, 1 lines, 2 polygons; null: no geometries at all (an empty table of unknown type reads as 2). */
  dimension: Dimension | null;
  /** typmod name of the column: Point, MultiPolygon, Geometry, … */
  typmod: string;
  /** The SRID is a geographic CRS (degrees). */
  geographic: boolean;
}

export interface OutputColumn {
  name: string;
  sqlType: string;
}

export interface Statement {
  sql: string;
  values?: unknown[];
}

export interface Plan {
  columns: OutputColumn[];
  /** typmod of the output geometry (SRID is the first input's); null: a table without geometry. */
  geometryType: string | null;
  /** Run first, in the transaction (temporary tables dropped at commit). */
  prepare: Statement[];
  /** The table and key whose ranges are the chunks; null: one pass. */
  chunkBy: { from: string; key: string } | null;
  /** SELECT of the output rows: the columns in order, then the geometry; `range` bounds the chunk key. */
  select(b: Binder, range: { lo: string; hi: string } | null): string;
  verb: string;
  notes: string[];
  /** A `SELECT COUNT(*) AS n` of input features left out for lacking a geometry (a note says how many). */
  skippedSql?: string;
}

/** `alias."field"` for each field, renamed where the output name differs. */
export function selectList(alias: string, fields: readonly PgField[], outNames?: readonly string[]): string[] {
  return fields.map((f, i) => {
    const out = outNames?.[i] ?? f.name;
    return out === f.name ? `${alias}.${ident(f.name)}` : `${alias}.${ident(f.name)} AS ${ident(out)}`;
  });
}

/** The same fields as output columns, with their own types. */
export function columnsOf(fields: readonly PgField[], outNames?: readonly string[]): OutputColumn[] {
  return fields.map((f, i) => ({ name: outNames?.[i] ?? f.name, sqlType: f.sqlType }));
}

/** ST_CollectionExtract type of a dimension: the parts an overlay keeps. */
export const extractType = (d: Dimension): 1 | 2 | 3 => (d + 1) as 1 | 2 | 3;

export const MULTI: Record<Dimension, string> = { 0: 'MultiPoint', 1: 'MultiLineString', 2: 'MultiPolygon' };

/**
 * A geometry made valid only where it is not (GEOS refuses self-intersecting rings), keeping
 * the parts of its own dimension — the worker stages such inputs with ogr2ogr -makevalid.
 */
export function validGeom(g: string, d: Dimension): string {
  if (d === 0) return g;
  return `CASE WHEN ST_IsValid(${g}) THEN ${g} ELSE ST_CollectionExtract(ST_MakeValid(${g}), ${extractType(d)}) END`;
}

export const dimensionName = (d: Dimension | null): string =>
  d === 0 ? 'points' : d === 1 ? 'lines' : d === 2 ? 'polygons' : 'no geometry';

/** `key BETWEEN lo AND hi`, or nothing without a chunk. */
export function inRange(key: string | null, range: { lo: string; hi: string } | null): string {
  return key && range ? ` AND ${key} BETWEEN ${range.lo} AND ${range.hi}` : '';
}
