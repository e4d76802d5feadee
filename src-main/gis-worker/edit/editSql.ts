import type { FieldType, Scalar, Target } from '../../../src-shared/edit/editOps.js';
import { checkExpression, checkWhere, ExpressionError } from '../../../src-shared/processing/sqlExpression.js';
import { quoteIdentifier as qi, quoteLiteral } from '../../../src-shared/sql/quote.js';
import { BadInputError } from '../errors.js';

/** The SQL pieces of an edit: values, field names, targets, type conversions. */

/** A value as an SQL literal; a non-finite number is refused. */
export function sqlValue(v: Scalar): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new BadInputError(`${v} cannot be stored; use null for an empty value.`);
    return String(v);
  }
  return quoteLiteral(v);
}

/** The field's real spelling (SQLite compares names case-insensitively), or the person's error with the names there are. */
export function resolveField(fields: readonly string[], name: string): string {
  const found = fields.find((f) => f.toLowerCase() === name.toLowerCase());
  if (found) return found;
  throw new BadInputError(`There is no field '${name}'. Fields: ${fields.join(', ') || '(none)'}.`);
}

export function assertNewField(fields: readonly string[], name: string): void {
  if (fields.some((f) => f.toLowerCase() === name.toLowerCase()))
    throw new BadInputError(`A field named '${name}' already exists (names are compared without case).`);
}

/**
 * The features a target names, as an SQL condition. `fidExpr` is how the FID is written in the
 * query (the working copy's "fid"; rowid in GDAL's SQLite dialect over a Shapefile): the filter's
 * `fid` is rewritten to it.
 */
export function targetCondition(target: Target, fields: readonly string[], fidExpr = qi('fid')): string {
  if ('fids' in target) return `${fidExpr} IN (${[...new Set(target.fids)].map((f) => String(Math.trunc(f))).join(', ')})`;
  const sql = checked(() => checkWhere(target.where, fields, ['fid']).sql, 'where');
  return fidExpr === qi('fid') ? sql : sql.replace(/"fid"/gi, fidExpr);
}

/** A calculation checked against the allow-list, fields resolved; `fid` and `geom` may be read. */
export function checkedCalculation(expression: string, fields: readonly string[], fidExpr = qi('fid')): string {
  const sql = checked(() => checkExpression(expression, [...fields, 'fid']).sql, 'expression');
  return fidExpr === qi('fid') ? sql : sql.replace(/"fid"/gi, fidExpr);
}

function checked(run: () => string, param: string): string {
  try {
    return run();
  } catch (err) {
    if (err instanceof ExpressionError) throw new BadInputError(`'${param}': ${err.message}`);
    throw err;
  }
}

/** GeoPackage's declared type for each field type (what GDAL reads back as that type). */
export const DECLARED: Record<FieldType, string> = {
  integer: 'INTEGER',
  real: 'REAL',
  text: 'TEXT',
  date: 'DATE',
  datetime: 'DATETIME',
  boolean: 'BOOLEAN',
};

/**
 * `column`'s value converted to `type`, or NULL where it does not convert: what change_type
 * writes and what its preview counts. Text counts as a number only when it is one ("12", "-3",
 * "1.5e3"); a real becomes an integer rounded; dates and times must be ISO 8601.
 */
export function converted(column: string, type: FieldType): string {
  const x = qi(column);
  const s = `trim(CAST(${x} AS TEXT))`;
  const intText = `(${s} <> '' AND ${s} NOT IN ('+', '-') AND substr(${s}, 1, 1) GLOB '[0-9+-]' AND substr(${s}, 2) NOT GLOB '*[^0-9]*')`;
  const realText = `(${s} GLOB '*[0-9]*' AND ${s} NOT GLOB '*[^0-9.eE+-]*' AND length(${s}) - length(replace(${s}, '.', '')) <= 1 AND ${s} NOT GLOB '*[eE]*[eE]*')`;
  switch (type) {
    case 'text':
      return `CAST(${x} AS TEXT)`;
    case 'integer':
      return `CASE WHEN typeof(${x}) = 'integer' THEN ${x} WHEN typeof(${x}) = 'real' THEN CAST(round(${x}) AS INTEGER) WHEN ${intText} THEN CAST(${s} AS INTEGER) WHEN ${realText} THEN CAST(round(CAST(${s} AS REAL)) AS INTEGER) ELSE NULL END`;
    case 'real':
      return `CASE WHEN typeof(${x}) IN ('integer', 'real') THEN CAST(${x} AS REAL) WHEN ${realText} THEN CAST(${s} AS REAL) ELSE NULL END`;
    case 'date':
      return `CASE WHEN typeof(${x}) = 'text' THEN date(${s}) ELSE NULL END`;
    case 'datetime':
      return `CASE WHEN typeof(${x}) = 'text' AND datetime(${s}) IS NOT NULL THEN strftime('%Y-%m-%dT%H:%M:%fZ', ${s}) ELSE NULL END`;
    case 'boolean':
      return `CASE WHEN typeof(${x}) IN ('integer', 'real') AND ${x} IN (0, 1) THEN CAST(${x} AS INTEGER) WHEN lower(${s}) IN ('true', 't', 'yes', 'y', '1') THEN 1 WHEN lower(${s}) IN ('false', 'f', 'no', 'n', '0') THEN 0 ELSE NULL END`;
  }
}
