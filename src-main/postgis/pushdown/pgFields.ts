import type pg from 'pg';
import { PushdownError } from './types.js';
import { editDistance } from '../../../src-shared/text/editDistance.js';

export { NameAllocator } from '../../../src-shared/text/nameAllocator.js';

/**
 * A table's attribute columns as the local algorithms see them through GDAL: every column but
 * the geometry and the integer primary key (GDAL's FID), with OGR's kind of type, so numeric
 * checks and output types follow the worker's rules (fieldNames.ts, aggregate.ts).
 */

export type FieldKind = 'integer' | 'integer64' | 'real' | 'string' | 'other';

export interface PgField {
  name: string;
  /** format_type(): the exact type to re-create, e.g. `character varying(80)`, `numeric(12,3)`. */
  sqlType: string;
  kind: FieldKind;
}

const KIND: Record<string, FieldKind> = {
  int2: 'integer',
  int4: 'integer',
  int8: 'integer64',
  float4: 'real',
  float8: 'real',
  numeric: 'real',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
};

export const isNumeric = (f: PgField): boolean => f.kind === 'integer' || f.kind === 'integer64' || f.kind === 'real';

interface ColumnRow {
  name: string;
  sql_type: string;
  typname: string;
}

/** All columns of a table or view, in order (values bound, never spliced). */
export async function readColumns(client: pg.Client, t: { schema: string; table: string }): Promise<PgField[]> {
  const r = await client.query<ColumnRow>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS sql_type, ty.typname
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_type ty ON ty.oid = a.atttypid
      WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [t.schema, t.table],
  );
  return r.rows.map((row) => ({ name: row.name, sqlType: row.sql_type, kind: KIND[row.typname] ?? 'other' }));
}

/** The attributes: every column but the geometry and the key. */
export function attributeFields(columns: PgField[], input: { geomColumn: string; keyColumn: string | null }): PgField[] {
  return columns.filter((c) => c.name !== input.geomColumn && c.name !== input.keyColumn);
}

/**
 * The real spelling of each requested field: exact first, then ignoring case (as the worker's
 * resolveFields); a miss names the nearest real names and then lists all.
 */
export function resolveFields(requested: readonly string[], available: readonly PgField[], param: string, table: string): PgField[] {
  return requested.map((name) => {
    const hit = available.find((f) => f.name === name) ?? available.find((f) => f.name.toLowerCase() === name.trim().toLowerCase());
    if (hit) return hit;
    const near = nearestNames(
      name,
      available.map((f) => f.name),
    );
    const list = available.map((f) => f.name).join(', ') || '(none)';
    throw new PushdownError(
      'invalid_params',
      `'${param}': no field '${name}' in ${table}${near.length ? `; did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : ''} Its fields are: ${list}`,
    );
  });
}

/** Up to three names within a few edits of `name` (ignoring case), closest first. */
export function nearestNames(name: string, names: readonly string[]): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return names
    .map((n) => ({ n, d: editDistance(wanted, n.toLowerCase()) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map((x) => x.n);
}
