import type { PgRasterName, PgTableName } from '../../src-shared/domain/pgSource.js';
import type { DatabaseAccess } from './protocol.js';
import { BadInputError } from './errors.js';

/**
 * The PostGIS connections main told this worker about (issue 16). A `postgis://<id>` source
 * opens only when its id is here; the worker never learns a connection any other way.
 */
let known = new Map<string, DatabaseAccess>();

export function setDatabases(databases: Record<string, DatabaseAccess>): void {
  known = new Map(Object.entries(databases));
}

/** The server a connection id stands for (what the source check reports), or null. */
export function databaseOrigin(connectionId: string): string | null {
  return known.get(connectionId)?.origin ?? null;
}

/**
 * GDAL's PostgreSQL driver strips these keywords out of the connection string before libpq
 * sees it, wherever they stand, even inside a quoted value.
 */
const GDAL_KEYWORDS = /\b(tables|schemas|active_schema)\s*=/i;

/**
 * The `PG:` string that opens one table of a saved connection, limited to that table
 * (`tables=`) when its names are plain identifiers (GDAL's list cannot quote; the layer is then
 * found by name without the list, which costs one look at the catalogue). Every libpq value is quoted (a space, quote or `=` in a password stays inside
 * it), every field is given (PGHOST, PGUSER… from the environment never fill a gap), and
 * without a password the `.pgpass` file is not read. Never shown to anyone: it holds the password.
 */
export function pgOpenString(connectionId: string, table: PgTableName): string {
  const conninfo = pgConninfo(connectionId);
  const plain = /^[A-Za-z_][A-Za-z0-9_]*$/;
  return plain.test(table.schema) && plain.test(table.table) ? `PG:${conninfo} tables=${table.schema}.${table.table}` : `PG:${conninfo}`;
}

/**
 * The `PG:` string that opens a saved connection for writing a new table (an export): the
 * same quoted, complete values as `pgOpenString`, without `tables=` (the table does not exist
 * yet). Never shown to anyone: it holds the password.
 */
export function pgWriteString(connectionId: string): string {
  return `PG:${pgConninfo(connectionId)}`;
}

/**
 * Open options of a GDAL session that runs text from a query (a kept copy, a live query layer):
 * every transaction of the session is READ ONLY, with a statement time-out. Session-wide, not a
 * `BEGIN READ ONLY` prelude: GDAL's own BEGIN/COMMIT around layer reads would end that
 * transaction and the later reads would run writable (seen with a function that inserts).
 * `before` runs first, while the session can still create its temporary view.
 */
export function pgReadOnlyOptions(timeoutMs: number, before = ''): string[] {
  return [
    `PRELUDE_STATEMENTS=${before ? `${before}; ` : ''}SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY; SET statement_timeout = ${Math.round(timeoutMs)}`,
  ];
}

/**
 * What GDAL's PostGIS Raster driver takes out of the whole `PG:` string before libpq sees it,
 * wherever it stands, even inside a quoted value (as GDAL_KEYWORDS for the vector driver).
 */
const RASTER_KEYWORDS = /\b(schema|table|column|where|mode|outdb_resolution)\s*=/i;

/**
 * The `PG:` string of one raster column (issue 16) for GDAL's PostGIS Raster driver: the whole
 * table as one raster (`mode=2`), out-of-database bands resolved by the server
 * (`outdb_resolution=server_side`: the driver never opens a file path the database names on
 * this machine). The driver's own parser takes the names in single quotes without escapes:
 * a name with a quote or backslash is refused.
 */
export function pgRasterOpenString(connectionId: string, r: PgRasterName): string {
  const names = [r.schema, r.table, r.column];
  if (names.some((n) => /['\\]/.test(n)))
    throw new BadInputError(`GDAL cannot open a raster whose schema, table or column name holds a quote or backslash: ${names.join('.')}`);
  const conninfo = pgConninfo(connectionId, RASTER_KEYWORDS);
  return `PG:${conninfo} schema='${r.schema}' table='${r.table}' column='${r.column}' mode=2 outdb_resolution=server_side`;
}

/** Every libpq value of a saved connection, quoted; refused when GDAL would strip part of one. */
function pgConninfo(connectionId: string, driverKeywords: RegExp = GDAL_KEYWORDS): string {
  const access = known.get(connectionId);
  if (!access) throw new BadInputError(`There is no saved PostGIS connection '${connectionId}'`);
  const values: [string, string][] = [
    ['host', access.host.replace(/^\[(.*)\]$/, '$1')],
    ['port', String(access.port)],
    ['dbname', access.database],
    ['user', access.user],
    ['sslmode', access.sslmode],
    ['connect_timeout', '10'],
    ['application_name', 'mapwright-worker'],
    access.password === null ? ['passfile', '/dev/null'] : ['password', access.password],
  ];
  const stripped = values.find(([, v]) => GDAL_KEYWORDS.test(v) || driverKeywords.test(v));
  if (stripped)
    throw new BadInputError(
      `The PostGIS connection '${connectionId}' cannot be opened by GDAL: its ${stripped[0]} contains '${(GDAL_KEYWORDS.exec(stripped[1]) ?? driverKeywords.exec(stripped[1]))![1]}=', a word GDAL takes out of the connection string`,
    );
  return values.map(([k, v]) => `${k}=${quote(v)}`).join(' ');
}

/** Removes a connection's password from a message GDAL or libpq wrote. */
export function scrubDatabaseSecrets(message: string): string {
  let out = message;
  for (const access of known.values()) {
    if (access.password && access.password.length >= 3) out = out.split(access.password).join('***');
  }
  return out;
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
