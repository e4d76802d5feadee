import type pg from 'pg';
import type { PgBrowseResult, PgConnectionSpec, PgSpatialColumn, PgSpatialTable } from '../../src-shared/domain/pgConnection.js';
import { withPgClient, type PgClientOptions } from './pgClient.js';

/** A table never analysed is counted exactly only up to this size on disk (8 MB). */
const COUNT_UP_TO_BYTES = 8 * 1024 * 1024;

const KINDS: Record<string, PgSpatialTable['kind']> = {
  r: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
  p: 'partitioned_table',
};

interface ColumnRow {
  schema: string;
  tbl: string;
  col: string;
  kind: PgSpatialColumn['kind'];
  gtype: string | null;
  srid: number | null;
  dims: number | null;
  relkind: string;
  reltuples: number;
  bytes: string;
}

/** Where an extension's objects live (geometry_columns is in postgis's schema), or null. */
async function extensionSchema(client: pg.Client, name: string): Promise<string | null> {
  const { rows } = await client.query<{ nspname: string }>(
    'SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1',
    [name],
  );
  return rows[0]?.nspname ?? null;
}

/**
 * The spatial columns the user may read: PostGIS's own catalog views (geometry_columns,
 * geography_columns and, with postgis_raster, raster_columns — they already leave out tables
 * without SELECT privilege), joined to pg_class for the kind and the planner's row estimate.
 * No value from outside enters the SQL; the schema names put in are quoted identifiers read
 * from pg_extension.
 */
async function spatialColumns(client: pg.Client): Promise<ColumnRow[]> {
  const postgis = await extensionSchema(client, 'postgis');
  if (!postgis) return [];
  const raster = await extensionSchema(client, 'postgis_raster');
  const q = (schema: string) => client.escapeIdentifier(schema);
  const parts = [
    `SELECT f_table_schema::text AS schema, f_table_name::text AS tbl, f_geometry_column::text AS col, 'geometry' AS kind,
            type::text AS gtype, srid::int AS srid, coord_dimension::int AS dims FROM ${q(postgis)}.geometry_columns`,
    `SELECT f_table_schema::text, f_table_name::text, f_geography_column::text, 'geography', type::text, srid::int, coord_dimension::int
       FROM ${q(postgis)}.geography_columns`,
  ];
  if (raster)
    parts.push(
      `SELECT r_table_schema::text, r_table_name::text, r_raster_column::text, 'raster', NULL::text, srid::int, NULL::int FROM ${q(raster)}.raster_columns`,
    );
  const { rows } = await client.query<ColumnRow>(
    `WITH cols AS (${parts.join(' UNION ALL ')})
     SELECT cols.*, c.relkind::text AS relkind, c.reltuples::float8 AS reltuples, pg_relation_size(c.oid)::text AS bytes
       FROM cols
       JOIN pg_namespace n ON n.nspname = cols.schema
       JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = cols.tbl
      ORDER BY cols.schema, cols.tbl, cols.col`,
  );
  return rows;
}

/**
 * Rows: the estimate when the planner has one (> 0); a never-analysed (-1) or empty-looking (0)
 * table or materialized view counted exactly when small; null for views and large tables.
 */
async function rowCount(client: pg.Client, row: ColumnRow): Promise<{ rows: number | null; rowsExact: boolean }> {
  if (row.reltuples > 0) return { rows: Math.round(row.reltuples), rowsExact: false };
  if ((row.relkind === 'r' || row.relkind === 'm') && Number(row.bytes) <= COUNT_UP_TO_BYTES) {
    try {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${client.escapeIdentifier(row.schema)}.${client.escapeIdentifier(row.tbl)}`,
      );
      return { rows: Number(rows[0]?.n ?? 0), rowsExact: true };
    } catch {
      return { rows: null, rowsExact: false };
    }
  }
  return { rows: null, rowsExact: false };
}

/** Schemas, and the tables and views in them with geometry, geography or raster columns. */
export async function browsePg(spec: PgConnectionSpec, password: string | null, options: PgClientOptions = {}): Promise<PgBrowseResult> {
  return withPgClient(
    spec,
    password,
    async (client): Promise<PgBrowseResult> => {
      const { rows: schemaRows } = await client.query<{ name: string }>(
        `SELECT nspname AS name FROM pg_namespace
          WHERE has_schema_privilege(oid, 'USAGE') AND nspname <> 'information_schema' AND nspname NOT LIKE $1
          ORDER BY nspname`,
        ['pg\\_%'],
      );
      const tables = new Map<string, PgSpatialTable & { schema: string }>();
      for (const row of await spatialColumns(client)) {
        const key = JSON.stringify([row.schema, row.tbl]);
        let table = tables.get(key);
        if (!table) {
          table = { schema: row.schema, name: row.tbl, kind: KINDS[row.relkind] ?? 'table', ...(await rowCount(client, row)), columns: [] };
          tables.set(key, table);
        }
        table.columns.push({
          name: row.col,
          kind: row.kind,
          geometryType: row.kind === 'raster' ? null : (row.gtype ?? 'GEOMETRY'),
          srid: row.srid ?? 0,
          dims: row.dims,
        });
      }
      return {
        ok: true,
        schemas: schemaRows.map(({ name }) => ({
          name,
          tables: [...tables.values()].filter((t) => t.schema === name).map(({ schema: _schema, ...t }) => t),
        })),
      };
    },
    options,
  );
}
