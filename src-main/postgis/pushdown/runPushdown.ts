import type pg from 'pg';
import { cancelGuard } from './cancel.js';
import { loadInputInfo } from './inputInfo.js';
import { createOutputTable, finishOutputTable, insertInto } from './outputTable.js';
import { Binder, type Plan } from './plan.js';
import { NameAllocator } from './pgFields.js';
import { checkNewName } from './pgIdent.js';
import { layerParamsOf, planFor } from './pushdownSql.js';
import { type PushdownOptions, type PushdownRequest, type PushdownResult, type PushdownSession, PushdownError } from './types.js';

/**
 * Runs one processing algorithm inside the PostGIS database that holds its inputs: one
 * transaction that checks the inputs, creates the output table, fills it in key-range chunks
 * (progress after each, Stop between and within them), indexes it and commits. A failure or a
 * Stop rolls everything back: no table is left behind.
 */

/** Chunks per run: enough for progress to move, few enough that each is worth a statement. */
const CHUNKS = 16;
/** A run may take long: the session's own limits (connectPg's 30 s) would cut it short. */
const NO_LIMIT_MS = 2 ** 31 - 1;

export async function runPushdown(session: PushdownSession, request: PushdownRequest, opts: PushdownOptions = {}): Promise<PushdownResult> {
  const { client } = session;
  const progress = opts.onProgress ?? (() => undefined);
  const layerParams = layerParamsOf(request.algorithm);
  if (request.inputs.length !== layerParams.length)
    throw new PushdownError(
      'invalid_params',
      `${request.algorithm} takes ${layerParams.length} table(s) (${layerParams.join(', ')}), got ${request.inputs.length}`,
    );
  checkNewName(request.output.schema, 'output schema');
  checkNewName(request.output.table, 'output table');
  if (opts.signal?.aborted) throw cancelled();

  const query = (sql: string, values?: unknown[]) =>
    client.query({ text: sql, values: values ?? [], query_timeout: NO_LIMIT_MS } as pg.QueryConfig);
  const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
  const guard = cancelGuard(session, pid, opts.signal);
  const step = async (sql: string, values?: unknown[]) => {
    if (guard.aborted) throw cancelled();
    return query(sql, values);
  };
  try {
    await query('BEGIN');
    try {
      await query('SET LOCAL statement_timeout = 0');
      progress(0.01, 'Reading the inputs');
      const inputs = [];
      for (const input of request.inputs) inputs.push(await loadInputInfo(client, input));
      const plan = planFor(request.algorithm, inputs, request.params);
      const notes = [...plan.notes, ...reserveOutputNames(plan)];
      const srid = inputs[0]!.srid;
      await createOutputTable(client, request.output, plan, srid, request.inputs);
      for (const s of plan.prepare) {
        progress(0.03, 'Preparing');
        await step(s.sql, s.values);
      }
      const featureCount = await fill(step, request, plan, progress);
      if (plan.skippedSql) {
        const n = Number((await step(plan.skippedSql)).rows[0]?.n ?? 0);
        if (n > 0) notes.push(`${n} feature(s) without geometry were skipped`);
      }
      if (guard.aborted) throw cancelled();
      progress(0.97, 'Writing the spatial index');
      await finishOutputTable(client, request.output, plan);
      if (guard.aborted) throw cancelled();
      await query('COMMIT');
      progress(1, `${featureCount.toLocaleString('en-US')} features written`);
      return { output: { schema: request.output.schema, table: request.output.table }, featureCount, notes };
    } catch (err) {
      // The cancel must land before the rollback is sent, or it could hit the rollback.
      await guard.settle();
      await query('ROLLBACK').catch(() => undefined);
      throw guard.aborted ? cancelled() : asPushdownError(err);
    }
  } finally {
    guard.dispose();
    await guard.settle();
  }
}

/** Inserts the plan's rows chunk by chunk; returns how many were written. */
async function fill(
  step: (sql: string, values?: unknown[]) => Promise<pg.QueryResult>,
  request: PushdownRequest,
  plan: Plan,
  progress: (f: number, m: string) => void,
): Promise<number> {
  const insert = insertInto(request.output, plan);
  const ranges = plan.chunkBy ? await chunkRanges(step, plan.chunkBy) : [null];
  if (!plan.chunkBy) progress(0.05, `${plan.verb} in one pass`);
  let written = 0;
  let done = 0;
  for (const range of ranges) {
    const b = new Binder();
    const bounds = range && { lo: b.bind(range[0], 'bigint'), hi: b.bind(range[1], 'bigint') };
    const r = await step(insert + plan.select(b, bounds), b.values);
    written += r.rowCount ?? 0;
    done++;
    progress(0.05 + (0.9 * done) / ranges.length, `${plan.verb}: chunk ${done} of ${ranges.length}`);
  }
  return written;
}

/** About CHUNKS ranges of equal key span (the worker's fidChunks), or none for an empty table. */
async function chunkRanges(
  step: (sql: string, values?: unknown[]) => Promise<pg.QueryResult>,
  by: NonNullable<Plan['chunkBy']>,
): Promise<[string, string][]> {
  const r = await step(`SELECT MIN(${by.key})::text AS lo, MAX(${by.key})::text AS hi FROM ${by.from}`);
  const row = r.rows[0] as { lo: string | null; hi: string | null };
  if (row.lo === null || row.hi === null) return [];
  // BigInt: an int8 key may pass 2^53.
  const lo = BigInt(row.lo);
  const hi = BigInt(row.hi);
  const size = (hi - lo + 1n + BigInt(CHUNKS) - 1n) / BigInt(CHUNKS);
  const out: [string, string][] = [];
  for (let x = lo; x <= hi; x += size) out.push([x.toString(), (x + size - 1n < hi ? x + size - 1n : hi).toString()]);
  return out;
}

/** The output's own `fid` and `geom`: an input field of either name is renamed (fid_2, geom_2). */
function reserveOutputNames(plan: Plan): string[] {
  const names = new NameAllocator(['fid', ...(plan.geometryType ? ['geom'] : [])]);
  const notes: string[] = [];
  plan.columns = plan.columns.map((c) => {
    const name = names.take(c.name);
    if (name !== c.name) notes.push(`The field ${c.name} was renamed ${name} (the output's own column has that name)`);
    return { ...c, name };
  });
  return notes;
}

function cancelled(): PushdownError {
  return new PushdownError('cancelled', 'cancelled');
}

/** The server's refusals in the person's words; the rest as failures with the server's reason. */
function asPushdownError(err: unknown): PushdownError {
  if (err instanceof PushdownError) return err;
  const e = err as { code?: string; message?: string };
  const reason = e.message ?? String(err);
  if (e.code === '42501') return new PushdownError('permission', `The database refused: ${reason}`, { cause: err });
  if (e.code === '42P07') return new PushdownError('output_exists', `The output table already exists: ${reason}`, { cause: err });
  if (e.code === '57014')
    return new PushdownError('failed', `The database cancelled the statement (a time limit?): ${reason}`, { cause: err });
  if (e.code === 'XX000' && /GEOS|TopologyException|geometry/i.test(reason))
    return new PushdownError('invalid_params', `PostGIS could not process the geometries: ${reason}`, { cause: err });
  return new PushdownError('failed', `The database failed: ${reason}`, { cause: err });
}
