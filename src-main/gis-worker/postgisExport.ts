import { randomBytes } from 'node:crypto';
import type { Dataset } from 'gdal-async';
import { quoteIdentifier, quoteQualified } from '../../src-shared/sql/quote.js';
import type { CallArgs, CallResult } from '../../src-shared/worker/workerCalls.js';
import { pgWriteString, scrubDatabaseSecrets } from './databases.js';
import { BadInputError, gdalReason, throwIfCancelled } from './errors.js';
import { gdal } from './gdal.js';
import { flatGeometryType } from './geometryType.js';
import { openSource, type OpenedVector } from './openSource.js';
import type { FunctionContext } from './functions/types.js';

/**
 * `postgis.export` (issue 16): a project layer copied into a new table of a saved PostGIS
 * connection through GDAL's PostgreSQL driver (the source opened and guarded by `openSource`,
 * the server reached only through `pgWriteString`).
 *
 * The rows are written into a fresh table with a random name in the target schema, then
 * renamed into place in one transaction (which also drops the old table when `overwrite`): a
 * failed or stopped export leaves the target as it was, and a half-written table never carries
 * the name the person asked for. The temporary table is dropped when anything fails.
 *
 * Layer creation options: `SCHEMA=` with `EXTRACT_SCHEMA_FROM_LAYER_NAME=NO` (a dot in a table
 * name stays in the name) and `LAUNDER=NO`: GDAL's laundering lower-cases and replaces
 * characters in table and column names, so the table would not be the one the tool reported and
 * the columns would not match the local layer's fields; unlaundered, names round-trip exactly
 * (GDAL quotes every identifier).
 */
export async function exportToPostgis(
  args: CallArgs<'postgis.export'>,
  ctx: Pick<FunctionContext, 'signal' | 'progress'>,
): Promise<CallResult<'postgis.export'>> {
  const { connectionId, schema, table, overwrite } = args;
  const target = `${schema}.${table}`;
  const opened = await openSource(args.source);
  try {
    if (opened.kind !== 'vector') throw new BadInputError(`${opened.path} is a raster; only vector layers can be exported to PostGIS.`);
    if (opened.layer.geomType === gdal.wkbNone)
      throw new BadInputError(`${opened.path} has no geometry; only vector layers can be exported to PostGIS.`);
    const promote = await mixesSingleAndMulti(opened);
    throwIfCancelled(ctx.signal);

    const dst = await openServer(connectionId);
    const temp = `mw_export_${randomBytes(6).toString('hex')}`;
    let written = false;
    try {
      const found = catalogue(dst, schema, table);
      if (!found.schema)
        throw new BadInputError(
          `The schema '${schema}' does not exist in the database of connection '${connectionId}'; nothing was written.`,
        );
      if (found.relkind && !overwrite)
        throw new BadInputError(
          `The table ${target} already exists in connection '${connectionId}'; nothing was written. Choose another table name, or overwrite it.`,
        );
      if (found.relkind && !['r', 'p'].includes(found.relkind))
        throw new BadInputError(
          `${target} in connection '${connectionId}' is not a table (a view or another object); it is never replaced.`,
        );

      const options = [
        ...['-lco', `SCHEMA=${schema}`, '-lco', 'EXTRACT_SCHEMA_FROM_LAYER_NAME=NO'],
        ...['-lco', 'GEOMETRY_NAME=geom', '-lco', 'FID=fid', '-lco', 'SPATIAL_INDEX=GIST', '-lco', 'LAUNDER=NO'],
        ...['-nln', temp, '-gt', '65536'],
        ...(promote ? ['-nlt', 'PROMOTE_TO_MULTI'] : []),
        opened.layer.name,
      ];
      ctx.progress(0, `Writing ${target}`);
      written = true;
      try {
        await gdal.vectorTranslateAsync(dst, opened.ds, options, {
          progress_cb: (f: number) => {
            if (ctx.signal.aborted) return 0; // GDAL stops when the callback answers 0
            ctx.progress(Math.min(0.95, Math.max(0, f * 0.95)), `Writing ${target}`);
            return 1;
          },
        });
      } catch (err) {
        throwIfCancelled(ctx.signal);
        throw new BadInputError(`Exporting to ${target} failed: ${scrubDatabaseSecrets(gdalReason(err))}`);
      }
      throwIfCancelled(ctx.signal);
      // Closing ends GDAL's COPY and runs what it deferred (the spatial index) before the rename.
      dst.close();
    } catch (err) {
      if (written) await dropQuietly(connectionId, schema, temp);
      throw err;
    } finally {
      closeQuietly(dst);
    }

    ctx.progress(0.97, `Naming ${target}`);
    const featureCount = await putInPlace(connectionId, schema, temp, table, overwrite);
    return { schema, table, featureCount };
  } finally {
    opened.ds.close();
  }
}

/** A Shapefile's "Polygon" layer may hold multipolygons, a GeoJSON's "Unknown" both forms: one column type needs the multi form. */
async function mixesSingleAndMulti(opened: OpenedVector): Promise<boolean> {
  const flat = flatGeometryType(opened.layer.geomType);
  const single = flat === gdal.wkbPoint || flat === gdal.wkbLineString || flat === gdal.wkbPolygon;
  if (!single && flat !== gdal.wkbUnknown) return false; // a multi type (or a curve type) is written as it is
  try {
    const result = await opened.ds.executeSQLAsync(
      `SELECT DISTINCT OGR_GEOMETRY FROM ${quoteIdentifier(opened.layer.name)}`,
      undefined,
      'OGRSQL',
    );
    const names = new Set<string>();
    for (let f = await result.features.firstAsync(); f; f = await result.features.nextAsync()) {
      const name = f.fields.get(0) as string | null;
      if (name)
        names.add(
          name
            .trim()
            .toUpperCase()
            .replace(/\s*(ZM|Z|M)$/, ''),
        );
    }
    return ['POINT', 'LINESTRING', 'POLYGON'].some((base) => names.has(base) && names.has(`MULTI${base}`));
  } catch {
    // Cannot tell: a Shapefile's single type is then promoted, as its working copy is.
    return single && opened.ds.driver.description === 'ESRI Shapefile';
  }
}

async function openServer(connectionId: string): Promise<Dataset> {
  const conninfo = pgWriteString(connectionId);
  try {
    return await gdal.openAsync(conninfo, 'r+', ['PostgreSQL']);
  } catch (err) {
    throw new BadInputError(
      `Cannot connect to the PostGIS connection '${connectionId}': ${scrubDatabaseSecrets(connectFailure(err, conninfo))}`,
    );
  }
}

/**
 * Why libpq refused: gdal-async's error only says "Error opening dataset", the driver's own
 * message (password authentication failed, no such database…) is GDAL's last error, which only
 * a synchronous open leaves where JavaScript can read it: the failed open is tried once more so.
 */
function connectFailure(err: unknown, conninfo: string): string {
  const reason = gdalReason(err);
  if (reason && !/^Error opening dataset$/i.test(reason)) return reason;
  try {
    gdal.open(conninfo, 'r+', ['PostgreSQL']).close();
    return reason || 'the server refused the connection';
  } catch {
    // expected: its reason is now GDAL's last error
  }
  const last = (gdal as unknown as { lastError?: { message?: unknown } | null }).lastError;
  const message = typeof last?.message === 'string' ? last.message : '';
  if (!/PQconnectdb|connection to server/i.test(message)) return 'the server refused the connection';
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^PQconnectdb failed\.?$/i.test(l));
  return lines.join(' ').replace(/^connection to server at [^:]*(:\s*)?/i, '') || 'the server refused the connection';
}

/** A text as a PostgreSQL escape-string literal, whatever `standard_conforming_strings` says. */
function literal(value: string): string {
  return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Whether the schema exists, and the kind (`pg_class.relkind`) of anything named `table` in it. */
function catalogue(ds: Dataset, schema: string, table: string): { schema: boolean; relkind: string | null } {
  const sql =
    `SELECT (SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = ${literal(schema)})::int AS schemas, ` +
    `(SELECT c.relkind::text FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace ` +
    `WHERE n.nspname = ${literal(schema)} AND c.relname = ${literal(table)} LIMIT 1) AS relkind`;
  const row = firstRow(ds, sql);
  return { schema: Number(row?.schemas ?? 0) > 0, relkind: (row?.relkind as string | null | undefined) ?? null };
}

function firstRow(ds: Dataset, sql: string): Record<string, unknown> | null {
  let result;
  try {
    result = ds.executeSQL(sql);
  } catch (err) {
    throw new BadInputError(`The PostGIS server refused a catalogue query: ${scrubDatabaseSecrets(gdalReason(err))}`);
  }
  const feature = result?.features.first();
  return feature ? (feature.fields.toObject() as Record<string, unknown>) : null;
}

/**
 * Drops the old table when overwriting and gives the new one its name, in one transaction
 * (PostgreSQL runs the statements of one simple query as one); then counts its rows.
 */
async function putInPlace(connectionId: string, schema: string, temp: string, table: string, overwrite: boolean): Promise<number> {
  const ds = await openServer(connectionId);
  try {
    const statements = [
      ...(overwrite ? [`DROP TABLE IF EXISTS ${quoteQualified({ schema, table })}`] : []),
      `ALTER TABLE ${quoteQualified({ schema, table: temp })} RENAME TO ${quoteIdentifier(table)}`,
    ];
    try {
      runStatement(ds, `BEGIN; ${statements.join('; ')}; COMMIT`);
    } catch (err) {
      const reason = scrubDatabaseSecrets(gdalReason(err));
      const exists = /already exists/i.test(reason);
      throw new BadInputError(
        exists
          ? `The table ${schema}.${table} already exists in connection '${connectionId}'; nothing was written. Choose another table name, or overwrite it.`
          : `The exported rows could not be named ${schema}.${table}: ${reason}`,
      );
    }
    const row = firstRow(ds, `SELECT count(*)::int AS n FROM ${quoteQualified({ schema, table })}`);
    return Number(row?.n ?? 0);
  } catch (err) {
    closeQuietly(ds);
    await dropQuietly(connectionId, schema, temp);
    throw err;
  } finally {
    closeQuietly(ds);
  }
}

/** Removes a temporary table left by a failed or stopped export (best effort: the error that matters is the first). */
async function dropQuietly(connectionId: string, schema: string, temp: string): Promise<void> {
  try {
    const ds = await openServer(connectionId);
    try {
      runStatement(ds, `DROP TABLE IF EXISTS ${quoteQualified({ schema, table: temp })}`);
    } finally {
      closeQuietly(ds);
    }
  } catch {
    // The server is gone or refuses: nothing more can be done from here.
  }
}

/**
 * A statement without a result set. gdal-async throws when GDAL returns no layer, which is what
 * a successful statement gives: only an error with a message is a failure.
 */
function runStatement(ds: Dataset, sql: string): void {
  try {
    ds.executeSQL(sql);
  } catch (err) {
    if (gdalReason(err)) throw err;
  }
}

function closeQuietly(ds: Dataset): void {
  try {
    ds.close();
  } catch {
    // already closed
  }
}
