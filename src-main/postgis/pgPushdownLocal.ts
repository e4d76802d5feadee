import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { StagedField } from '../../src-shared/worker/postgisCalls.js';
import { type Connections, openPushdownSession, planPushdown, type PushdownCall } from './pgPushdownRun.js';
import { cancelGuard } from './pushdown/cancel.js';
import { PushdownError, runPushdown, TEMP_SCHEMA, type PushdownOptions, type PushdownSession } from './pushdown/index.js';
import { ident, qualified } from './pushdown/pgIdent.js';

/**
 * Push-down without a results schema (issue 16): the algorithm runs inside the database into
 * a TEMPORARY table of the engine's own session (nothing persistent is written to the
 * server), which is then read back in batches through a server-side cursor into a staging
 * file in a temp folder of main's, and `write` (the GIS worker's `postgis.write_staged`) turns
 * that into the local GeoPackage layer. Stop cancels the statement on the server and is
 * honoured between batches; whatever happens the temporary table is dropped, the session
 * ended and the staging folder removed.
 */

/** The temporary output's name (the session is the run's own, so it is always free). */
const TEMP_TABLE = 'mapwright_pushdown_result';
/** Rows per FETCH: one round trip and one write each, Stop between them. */
const FETCH_ROWS = 5_000;
/** Progress shares: the run in the database, the copy back, the GeoPackage. */
const RUN_SHARE = 0.7;
const COPY_SHARE = 0.2;
/** A FETCH of big geometries may take long: the session's own limits would cut it short. */
const NO_LIMIT_MS = 2 ** 31 - 1;

/** What the worker needs to write the staged rows (see postgisCalls.ts). */
export interface StagedResult {
  staging: string;
  fields: StagedField[];
  geometryType: string | null;
  srs: string | null;
  featureCount: number;
}

export type StagedWriter<R> = (staged: StagedResult, opts: PushdownOptions) => Promise<R>;

export async function runPushdownToLocal<R>(
  connections: Connections,
  call: Omit<PushdownCall, 'outputName'>,
  write: StagedWriter<R>,
  opts: PushdownOptions = {},
): Promise<{ written: R; featureCount: number; notes: string[] }> {
  const plan = planPushdown(connections, call.connectionId, call.algorithm);
  if (!plan.ok) throw new PushdownError('invalid_params', `Cannot run ${call.algorithm} in the database: ${plan.reason}`);
  const progress = opts.onProgress ?? (() => undefined);
  const { session, inputs } = await openPushdownSession(connections, call);
  const temp = { schema: TEMP_SCHEMA, table: TEMP_TABLE };
  let dir: string | null = null;
  try {
    const run = await runPushdown(
      session,
      { algorithm: call.algorithm, inputs, params: call.params, output: { ...temp, overwrite: false } },
      { ...(opts.signal ? { signal: opts.signal } : {}), onProgress: (f, m) => progress(f * RUN_SHARE, m) },
    );
    dir = await mkdtemp(join(tmpdir(), 'mapwright-pdstage-'));
    const staged = await stageTable(session, temp, join(dir, 'result.ndjson'), run.featureCount, opts);
    // Nothing is left on the server before the (local) writing starts.
    await session.client.query(`DROP TABLE IF EXISTS ${qualified(temp)}`);
    const written = await write(staged, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      onProgress: (f, m) => progress(RUN_SHARE + COPY_SHARE + f * (1 - RUN_SHARE - COPY_SHARE), m),
    });
    return { written, featureCount: run.featureCount, notes: run.notes };
  } finally {
    // The temporary table dies with the session; dropped anyway, in case the pool ever keeps it.
    await session.client.query(`DROP TABLE IF EXISTS ${qualified(temp)}`).catch(() => undefined);
    await session.client.end().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

interface ColumnRow {
  name: string;
  sql_type: string;
  typname: string;
  typcategory: string;
}

/** One output column: its OGR field and the SQL that reads its value as text OGR parses. */
interface CopiedColumn {
  field: StagedField;
  select: string;
}

/**
 * Reads the temporary table in fid order through a cursor (FETCH by FETCH, so memory stays
 * flat) into `file`, one JSON array per row. Stop cancels a FETCH in flight on the server.
 */
async function stageTable(
  session: PushdownSession,
  table: { schema: string; table: string },
  file: string,
  featureCount: number,
  opts: PushdownOptions,
): Promise<StagedResult> {
  const { client } = session;
  const progress = opts.onProgress ?? (() => undefined);
  const columns = await client.query<ColumnRow>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS sql_type, t.typname, t.typcategory
       FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [qualified(table)],
  );
  const geomRow = columns.rows.find((c) => c.name === 'geom' && c.typname === 'geometry');
  const copied = columns.rows.filter((c) => c.name !== 'fid' && c !== geomRow).map(copiedColumn);
  const geometry = geomRow ? /^geometry\((\w+),(\d+)\)$/.exec(geomRow.sql_type) : null;
  const srid = geometry ? Number(geometry[2]) : 0;
  const staged: StagedResult = {
    staging: file,
    fields: copied.map((c) => c.field),
    geometryType: geomRow ? (geometry?.[1] ?? 'Geometry') : null,
    srs: srid ? await srsOf(client, srid) : null,
    featureCount,
  };

  const query = (text: string) => client.query({ text, rowMode: 'array', query_timeout: NO_LIMIT_MS } as pg.QueryConfig);
  const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
  const guard = cancelGuard(session, pid, opts.signal);
  const out = await open(file, 'wx');
  try {
    await query('BEGIN READ ONLY');
    try {
      // Every float as the exact value (the default since PostgreSQL 12; older servers need 3).
      await query('SET LOCAL extra_float_digits = 3');
      const select = ['fid', ...copied.map((c) => c.select), geomRow ? 'ST_AsBinary(geom)' : 'NULL::bytea'];
      await query(`DECLARE mapwright_copy NO SCROLL CURSOR FOR SELECT ${select.join(', ')} FROM ${qualified(table)} ORDER BY fid`);
      let copiedRows = 0;
      for (;;) {
        if (guard.aborted) throw cancelled();
        const batch = await query(`FETCH ${FETCH_ROWS} FROM mapwright_copy`);
        if (batch.rows.length === 0) break;
        const lines = (batch.rows as unknown[][]).map((row) => {
          const wkb = row[row.length - 1] as Buffer | null;
          return JSON.stringify([...row.slice(0, -1), wkb ? wkb.toString('base64') : null]);
        });
        await out.write(`${lines.join('\n')}\n`);
        copiedRows += batch.rows.length;
        progress(
          RUN_SHARE + COPY_SHARE * (featureCount ? Math.min(1, copiedRows / featureCount) : 1),
          `Copying the result back: ${copiedRows.toLocaleString('en-US')} of ${featureCount.toLocaleString('en-US')} features`,
        );
      }
      if (guard.aborted) throw cancelled();
      await query('COMMIT');
    } catch (err) {
      await guard.settle();
      await query('ROLLBACK').catch(() => undefined);
      if (guard.aborted) throw cancelled();
      if (err instanceof PushdownError) throw err;
      throw new PushdownError('failed', `Copying the result back failed: ${(err as Error).message ?? String(err)}`, { cause: err });
    }
  } finally {
    guard.dispose();
    await guard.settle();
    await out.close();
  }
  return staged;
}

/**
 * A column as GDAL's PostgreSQL driver types it, and its value as text GDAL parses back into
 * that type exactly: integers and floats in the server's exact text, dates and times as
 * ISO 8601 (whatever the session's DateStyle), booleans as 0/1, bytea as hex text, arrays as JSON.
 */
function copiedColumn(c: ColumnRow): CopiedColumn {
  const col = ident(c.name);
  const field = (type: StagedField['type'], width = 0, precision = 0): StagedField => ({ name: c.name, type, width, precision });
  const size = /\((\d+)(?:,(\d+))?\)/.exec(c.sql_type);
  if (c.typcategory === 'A') return { field: field('string'), select: `array_to_json(${col})::text` };
  switch (c.typname) {
    case 'bool':
      return { field: field('integer', 1), select: `${col}::int::text` };
    case 'int2':
    case 'int4':
      return { field: field('integer'), select: `${col}::text` };
    case 'int8':
      return { field: field('integer64'), select: `${col}::text` };
    case 'float4':
    case 'float8':
      return { field: field('real'), select: `${col}::text` };
    case 'numeric':
      return { field: field('real', Number(size?.[1] ?? 0), Number(size?.[2] ?? 0)), select: `${col}::text` };
    case 'varchar':
    case 'bpchar':
      return { field: field('string', Number(size?.[1] ?? 0)), select: `${col}::text` };
    case 'date':
      return { field: field('date'), select: `to_json(${col}) #>> '{}'` };
    case 'time':
    case 'timetz':
      return { field: field('time'), select: `to_json(${col}) #>> '{}'` };
    case 'timestamp':
    case 'timestamptz':
      return { field: field('dateTime'), select: `to_json(${col}) #>> '{}'` };
    case 'bytea':
      // gdal-async cannot set binary values: kept as hex text.
      return { field: field('string'), select: `encode(${col}, 'hex')` };
    default:
      return { field: field('string'), select: `${col}::text` };
  }
}

/** `EPSG:n` when the server's SRID is an EPSG code, else its WKT (a custom CRS), else null. */
async function srsOf(client: pg.Client, srid: number): Promise<string | null> {
  const r = await client.query<{ auth_name: string | null; auth_srid: number | null; srtext: string | null }>(
    'SELECT auth_name, auth_srid, srtext FROM spatial_ref_sys WHERE srid = $1',
    [srid],
  );
  const row = r.rows[0];
  if (!row) return null;
  if (row.auth_name?.toUpperCase() === 'EPSG' && row.auth_srid) return `EPSG:${row.auth_srid}`;
  return row.srtext || null;
}

function cancelled(): PushdownError {
  return new PushdownError('cancelled', 'cancelled');
}
