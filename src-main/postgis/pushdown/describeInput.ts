import type pg from 'pg';
import { ident, qualified } from './pgIdent.js';
import { type DescribedPgInput, PushdownError } from './types.js';

/**
 * What the engine needs to know about an input table, read from the catalogue: its geometry
 * column (the only one, unless named), SRID, geometry type and integer primary key.
 */
export async function describePgInput(
  client: pg.Client,
  t: { schema: string; table: string; geomColumn?: string },
): Promise<DescribedPgInput> {
  const label = `${t.schema}.${t.table}`;
  const rel = await client.query<{ relkind: string }>(
    `SELECT c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`,
    [t.schema, t.table],
  );
  if (rel.rowCount === 0) throw new PushdownError('invalid_params', `There is no table or view ${label}`);

  const geoms = await client.query<{ column: string; srid: number; type: string }>(
    `SELECT f_geometry_column AS column, srid, type FROM geometry_columns
      WHERE f_table_schema = $1 AND f_table_name = $2 ORDER BY f_geometry_column`,
    [t.schema, t.table],
  );
  const names = geoms.rows.map((g) => g.column);
  let geom;
  if (t.geomColumn !== undefined) {
    geom = geoms.rows.find((g) => g.column === t.geomColumn);
    if (!geom)
      throw new PushdownError(
        'invalid_params',
        `${label} has no geometry column '${t.geomColumn}'; its geometry columns: ${names.join(', ') || '(none)'}`,
      );
  } else if (geoms.rows.length === 1) {
    geom = geoms.rows[0]!;
  } else if (geoms.rows.length === 0) {
    const geography = await client.query('SELECT 1 FROM geography_columns WHERE f_table_schema = $1 AND f_table_name = $2 LIMIT 1', [
      t.schema,
      t.table,
    ]);
    throw new PushdownError(
      'invalid_params',
      geography.rowCount
        ? `${label} has only geography columns; processing in the database needs a geometry column`
        : `${label} has no geometry column`,
    );
  } else {
    throw new PushdownError('invalid_params', `${label} has ${names.length} geometry columns (${names.join(', ')}); name the one to use`);
  }

  // An unconstrained column says SRID 0; its rows may still carry one (GDAL reads it so too).
  let srid = Number(geom.srid);
  if (srid === 0) {
    const first = await client.query<{ srid: number }>(
      `SELECT ST_SRID(${ident(geom.column)}) AS srid FROM ${qualified(t)} WHERE ${ident(geom.column)} IS NOT NULL LIMIT 1`,
    );
    srid = Number(first.rows[0]?.srid ?? 0);
  }

  const key = await client.query<{ name: string }>(
    `SELECT a.attname AS name
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
      WHERE n.nspname = $1 AND c.relname = $2 AND i.indisprimary AND i.indnatts = 1
        AND a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)`,
    [t.schema, t.table],
  );
  return {
    schema: t.schema,
    table: t.table,
    geomColumn: geom.column,
    srid,
    keyColumn: key.rows[0]?.name ?? null,
    geometryType: geom.type.toUpperCase(),
  };
}

/**
 * True when every input is a table of one database reached through one saved connection: only
 * then can a single SQL statement read them all. Anything else goes to the GIS worker.
 */
export function samePgDatabase(inputs: readonly ({ connectionId: string } | { local: true })[]): boolean {
  if (inputs.length === 0) return false;
  const ids = inputs.map((i) => ('connectionId' in i ? i.connectionId : null));
  return ids.every((id) => id !== null && id === ids[0]);
}
