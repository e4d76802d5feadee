import type pg from 'pg';
import { checkServerQuery } from '../../src-shared/sql/checkServerQuery.js';
import { quoteIdentifier } from '../../src-shared/sql/quote.js';
import type { PgTileTable } from './pgVectorTile.js';

/**
 * A server query kept as a layer (`postgis://id|layername=sql:…`, issue 16) seen as a table for
 * server tiles: `from` is the checked query as a subquery. Its geometry column is the first of
 * the result whose type is PostGIS `geometry`; SRID and type come from its first non-empty row
 * (a query has no geometry_columns entry). Everything runs in a READ ONLY transaction.
 */
export async function describePgQuery(client: pg.Client, sql: string, columns: readonly string[]): Promise<PgTileTable> {
  const check = checkServerQuery(sql);
  if (!check.ok) throw new Error(`The query of this PostGIS layer is refused: ${check.reason}`);
  const from = pgQueryFrom(check.sql);
  await client.query('BEGIN READ ONLY');
  try {
    await client.query('SET LOCAL statement_timeout = 30000');
    const geometryOid = (await client.query<{ oid: number }>(`SELECT 'geometry'::regtype::oid AS oid`)).rows[0]!.oid;
    const shape = await client.query(`SELECT * FROM ${from} LIMIT 0`);
    const geomColumn = shape.fields.find((f) => f.dataTypeID === Number(geometryOid))?.name;
    if (!geomColumn) throw new Error('The query of this PostGIS layer returns no geometry column: it cannot be drawn');
    const g = quoteIdentifier(geomColumn);
    const first = await client.query<{ srid: number; type: string }>(
      `SELECT ST_SRID(${g}) AS srid, GeometryType(${g}) AS type FROM ${from} WHERE ${g} IS NOT NULL LIMIT 1`,
    );
    const row = first.rows[0];
    return {
      schema: '',
      table: '',
      from,
      geomColumn,
      srid: Number(row?.srid ?? 0),
      // A query's rows have no key the server keeps: its tiles carry no feature ids.
      keyColumn: null,
      columns,
      ...(row ? { geometryType: row.type } : {}),
    };
  } finally {
    await client.query('ROLLBACK');
  }
}

/** The query as a FROM item (line breaks: a trailing `--` comment ends before the parenthesis). */
export function pgQueryFrom(checkedSql: string): string {
  return `(\n${checkedSql}\n) AS mapwright_query`;
}
