import type pg from 'pg';
import type { PgConnectionSpec } from '../../src-shared/domain/pgConnection.js';
import { checkServerQuery } from '../../src-shared/sql/checkServerQuery.js';
import type { PgQueryAnswer } from '../../src-shared/tools/handles.js';
import { connectPg, type PgClientOptions } from './pgClient.js';
import { classifyPgError } from './pgErrors.js';

/**
 * One query of `inspect_sql` on a saved PostgreSQL/PostGIS connection (issue 16), read only
 * by construction, not by trust:
 *   - the text passes src-shared/sql/checkServerQuery.ts again here (main trusts no caller):
 *     one SELECT/WITH/VALUES/TABLE, no function that reaches files, the network or settings;
 *   - it runs in `BEGIN TRANSACTION READ ONLY` (the server refuses every write, in a CTE or a
 *     function alike) with `SET LOCAL statement_timeout`, and is always rolled back;
 *   - user text goes only through the extended protocol (one statement per message: a `;`
 *     the guard missed would be a syntax error, not a second statement) inside
 *     `DECLARE … CURSOR FOR`, which accepts only a query;
 *   - rows come through the cursor in batches, at most `limit` (one more tells it was cut)
 *     and `maxChars` characters of JSON, as the local tool caps them (readCapped);
 *   - geometry/geography columns are sent by the server as GeoJSON (6 decimals) only when
 *     asked, else not sent at all; rasters and bytea come as a one-line summary;
 *   - Stop (`signal`) runs pg_cancel_backend from a second session, and the connection is
 *     dropped if the server does not stop within a few seconds.
 */

export type PgQueryErrorKind = 'refused' | 'connection' | 'query' | 'read_only' | 'permission' | 'timeout' | 'cancelled';

export class PgQueryError extends Error {
  override readonly name = 'PgQueryError';
  constructor(
    readonly kind: PgQueryErrorKind,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export interface ReadOnlyQueryOptions {
  limit: number;
  includeGeometry: boolean;
  maxChars: number;
  /** The server's limit for each statement (default 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Connection options (a test's shorter connect time-out). */
  client?: PgClientOptions;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const BATCH = 200;
/** Counting the rows of a cut result is worth a few seconds, not another full time-out. */
const COUNT_MS = 5_000;
/** One value longer than this is cut (a huge text or GeoJSON would fill the model's window). */
const VALUE_CHARS = 20_000;
/** After Stop, how long the server gets to cancel before the connection is dropped. */
const CANCEL_GRACE_MS = 3_000;

const PROBE = 'DECLARE mapwright_probe NO SCROLL CURSOR FOR ';

/** Values as JSON: numbers as numbers where exact, json parsed, dates and the rest as the server's text. */
function parserFor(oid: number): (text: string) => unknown {
  switch (oid) {
    case 16: // bool
      return (v) => v === 't';
    case 21: // int2
    case 23: // int4
    case 26: // oid
      return Number;
    case 20: // int8
      return (v) => (Number.isSafeInteger(Number(v)) ? Number(v) : v);
    case 700: // float4
    case 701: // float8
      return (v) => (Number.isFinite(Number(v)) ? Number(v) : null);
    case 1700: // numeric: a number when a double holds it exactly enough
      return (v) => (/^-?\d+(\.\d+)?$/.test(v) && v.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15 ? Number(v) : v);
    case 114: // json
    case 3802: // jsonb
      return (v) => JSON.parse(v) as unknown;
    default:
      return (v) => v;
  }
}
const TYPES = { getTypeParser: (oid: number) => parserFor(oid) } as unknown as pg.CustomTypesConfig;

/** A user-derived statement: extended protocol (one statement), our value parsers, rows as arrays. */
function ext(client: pg.Client, text: string): Promise<pg.QueryArrayResult> {
  return client.query({ text, types: TYPES, rowMode: 'array', queryMode: 'extended' } as pg.QueryArrayConfig);
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

type SpatialKind = 'geometry' | 'geography' | 'raster';

/** PostGIS's types by oid, with the schema the extension lives in (its functions are called there). */
async function spatialTypes(client: pg.Client): Promise<Map<number, { kind: SpatialKind; schema: string }>> {
  const r = await client.query<{ oid: number; typname: SpatialKind; nspname: string }>(
    `SELECT t.oid::int AS oid, t.typname, n.nspname FROM pg_catalog.pg_type t
       JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
      WHERE t.typname IN ('geometry', 'geography', 'raster') AND t.typtype = 'b'`,
  );
  return new Map(r.rows.map((row) => [Number(row.oid), { kind: row.typname, schema: row.nspname }]));
}

/** Output names made unique (`id`, `id_2`), as object keys must be. */
function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let out = name;
    for (let n = 2; seen.has(out); n++) out = `${name}_${n}`;
    seen.add(out);
    return out;
  });
}

function capValue(value: unknown): unknown {
  return typeof value === 'string' && value.length > VALUE_CHARS ? `${value.slice(0, VALUE_CHARS)}… (${value.length} characters)` : value;
}

/** The statement running now, and where the person's query starts in it (for error positions). */
interface Running {
  text: string;
  offset: number;
}

/**
 * Runs `sql` on the connection `spec` (password from the key store) and answers as the local
 * `inspect.sql` does. Throws PgQueryError with a sentence the model can act on.
 */
export async function runReadOnlyQuery(
  spec: PgConnectionSpec,
  password: string | null,
  sql: string,
  opts: ReadOnlyQueryOptions,
): Promise<PgQueryAnswer> {
  const check = checkServerQuery(sql);
  if (!check.ok) throw new PgQueryError('refused', check.reason);
  const query = check.sql;
  const timeoutMs = Math.max(1, Math.round(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS));
  const { signal } = opts;
  if (signal?.aborted) throw stopped();

  let client: pg.Client;
  try {
    client = await connectPg(spec, password, { ...opts.client, statementTimeoutMs: timeoutMs });
  } catch (err) {
    throw new PgQueryError(
      'connection',
      `Could not connect to ${JSON.stringify(spec.name)}: ${classifyPgError(err, spec, password).reason}`,
    );
  }
  const pid = (client as unknown as { processID: number | null }).processID;
  let dropTimer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    void cancelBackend(spec, password, pid, opts.client);
    dropTimer = setTimeout(() => void client.end().catch(() => undefined), CANCEL_GRACE_MS);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const running: Running = { text: '', offset: 0 };
  try {
    if (signal?.aborted) throw stopped();
    return await readOnly(client, query, opts, timeoutMs, running);
  } catch (err) {
    if (signal?.aborted) throw stopped();
    if (err instanceof PgQueryError) throw err;
    throw explain(err, query, running, spec, password, timeoutMs);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    clearTimeout(dropTimer);
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

async function readOnly(client: pg.Client, query: string, opts: ReadOnlyQueryOptions, timeoutMs: number, running: Running) {
  await client.query('BEGIN TRANSACTION READ ONLY');
  await client.query(`SET LOCAL statement_timeout = ${timeoutMs}`);
  // The guard reads '…' as the SQL standard does; the server must too.
  await client.query('SET LOCAL standard_conforming_strings = on');
  const spatial = await spatialTypes(client);
  const run = (text: string, offset: number) => {
    running.text = text;
    running.offset = offset;
    return ext(client, text);
  };

  // The result's columns and types, without fetching a row.
  await run(PROBE + query, PROBE.length);
  const fields = (await run('FETCH FORWARD 0 FROM mapwright_probe', -1)).fields;
  await client.query('CLOSE mapwright_probe');

  const names = uniqueNames(fields.map((f) => f.name));
  const select: string[] = [];
  const columns: string[] = [];
  const spatialColumns: string[] = [];
  fields.forEach((f, i) => {
    const ref = `mapwright_q.c${i + 1}`;
    const type = spatial.get(f.dataTypeID);
    const fn = (name: string) => `${quoteIdent(type!.schema)}.${name}`;
    if (type?.kind === 'geometry' || type?.kind === 'geography') {
      spatialColumns.push(names[i]!);
      if (!opts.includeGeometry) return;
      select.push(`${fn('ST_AsGeoJSON')}(${ref}, 6)::json`);
    } else if (type?.kind === 'raster') {
      select.push(
        `'raster ' || ${fn('ST_Width')}(${ref}) || 'x' || ${fn('ST_Height')}(${ref}) || ', ' || ${fn('ST_NumBands')}(${ref}) || ' band(s), SRID ' || ${fn('ST_SRID')}(${ref})`,
      );
    } else if (f.dataTypeID === 17) {
      select.push(`pg_catalog.octet_length(${ref}) || ' bytes'`);
    } else select.push(ref);
    columns.push(names[i]!);
  });
  const aliases = fields.length ? `(${fields.map((_, i) => `c${i + 1}`).join(', ')})` : '';
  const head = `DECLARE mapwright_rows NO SCROLL CURSOR FOR SELECT ${select.join(', ')} FROM (`;
  await run(`${head}${query}) AS mapwright_q${aliases}`, head.length);

  const rows: Record<string, unknown>[] = [];
  let chars = 0;
  let truncatedBy: 'limit' | 'size' | null = null;
  fetching: for (;;) {
    if (opts.signal?.aborted) throw stopped();
    const want = Math.min(BATCH, opts.limit + 1 - rows.length);
    const batch = await run(`FETCH FORWARD ${want} FROM mapwright_rows`, -1);
    for (const values of batch.rows) {
      if (rows.length >= opts.limit) {
        truncatedBy = 'limit';
        break fetching;
      }
      const row: Record<string, unknown> = {};
      columns.forEach((name, i) => (row[name] = capValue(values[i])));
      const size = JSON.stringify(row).length;
      // The first row always comes, as in the local tool.
      if (chars + size > opts.maxChars && rows.length > 0) {
        truncatedBy = 'size';
        break fetching;
      }
      chars += size;
      rows.push(row);
    }
    if (batch.rows.length < want) break;
  }

  const total = truncatedBy ? await countRows(client, query, Math.min(COUNT_MS, timeoutMs), running, opts.signal) : rows.length;
  return {
    columns,
    rows,
    returned: rows.length,
    total_rows: total,
    truncated: truncatedBy !== null,
    truncated_by: truncatedBy,
    geometry: spatialColumns.length
      ? opts.includeGeometry
        ? `included as GeoJSON in each column's SRID: ${spatialColumns.join(', ')}`
        : `omitted: ${spatialColumns.join(', ')} (include_geometry: true to see it)`
      : 'none',
  };
}

/** All rows of the query, or null when counting them takes more than a few seconds. */
async function countRows(client: pg.Client, query: string, ms: number, running: Running, signal?: AbortSignal): Promise<number | null> {
  try {
    await client.query(`SET LOCAL statement_timeout = ${ms}`);
    const head = 'SELECT count(*) FROM (';
    running.text = `${head}${query}) AS mapwright_q`;
    running.offset = head.length;
    const r = await ext(client, running.text);
    const n = r.rows[0]?.[0];
    return typeof n === 'number' ? n : null;
  } catch (err) {
    if (signal?.aborted) throw err;
    return null;
  }
}

/** Asks the server, from a second session, to cancel what the first one runs. */
async function cancelBackend(
  spec: PgConnectionSpec,
  password: string | null,
  pid: number | null,
  options?: PgClientOptions,
): Promise<void> {
  if (!pid) return;
  let other: pg.Client | null = null;
  try {
    other = await connectPg(spec, password, { ...options, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 });
    await other.query('SELECT pg_catalog.pg_cancel_backend($1)', [pid]);
  } catch {
    // The connection is dropped after the grace period anyway.
  } finally {
    await other?.end().catch(() => undefined);
  }
}

const stopped = () => new PgQueryError('cancelled', 'The query was stopped and cancelled on the server.');

interface ServerError {
  code?: string;
  message?: string;
  position?: string;
  hint?: string;
  detail?: string;
}

/** Where in the person's query the server's position points (1-based, characters as JS counts them), or null. */
function positionInQuery(position: string | undefined, running: Running, query: string): number | null {
  if (!position || running.offset < 0) return null;
  // The server counts characters (code points); JS strings count UTF-16 units.
  const before = Array.from(running.text)
    .slice(0, Number(position) - 1)
    .join('').length;
  const at = before - running.offset;
  return at >= 0 && at <= query.length ? at : null;
}

function explain(
  err: unknown,
  query: string,
  running: Running,
  spec: PgConnectionSpec,
  password: string | null,
  timeoutMs: number,
): PgQueryError {
  const e = (err ?? {}) as ServerError;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : String(err);
  if (code === '57014')
    return new PgQueryError(
      'timeout',
      `The query ran past its time limit (${Math.round(timeoutMs / 1000)} s) and was stopped on the server.`,
      'Make it cheaper: filter on an indexed column or a bounding box (geom && ST_MakeEnvelope(…)), aggregate, or add LIMIT.',
    );
  if (code === '25006') return new PgQueryError('read_only', `Only reads run on a server; it refused: ${message}.`);
  if (code === '42501')
    return new PgQueryError(
      'permission',
      `The server refused: ${message} (user ${JSON.stringify(spec.user)}).`,
      'The connection’s user may not read that; query tables it may read, or ask the person for access.',
    );
  // SQLSTATE class 08 and errors without a code: the connection, not the query.
  if (!code || code.startsWith('08') || code.startsWith('28') || code === '57P01')
    return new PgQueryError(
      'connection',
      `The connection to ${JSON.stringify(spec.name)} failed: ${classifyPgError(err, spec, password).reason}`,
    );
  const at = positionInQuery(e.position, running, query);
  const where = at === null ? '' : ` (at character ${at + 1}: …${query.slice(Math.max(0, at - 30), at)}⟨here⟩${query.slice(at, at + 30)}…)`;
  const detail = e.detail ? ` ${e.detail}` : '';
  const hint =
    e.hint ??
    (code === '42P01' || code === '42703' || code === '3F000'
      ? 'Check schema, table and column names: information_schema.columns lists them (table_schema, table_name, column_name).'
      : undefined);
  return new PgQueryError('query', `The query failed on the server: ${message}${where}.${detail}`, hint);
}
