import type pg from 'pg';
import type { PgTableName } from '../../src-shared/domain/pgSource.js';
import { connectPg } from './pgClient.js';
import { classifyPgError } from './pgErrors.js';
import type { PgConnectionStore } from './pgConnectionStore.js';
import {
  canPushDown,
  describePgInput,
  PushdownError,
  runPushdown,
  type PgInput,
  type PushdownResult,
  type PushdownSession,
} from './pushdown/index.js';

export type Connections = Pick<PgConnectionStore, 'get' | 'password'>;

/**
 * Whether a run can happen inside the database, or why it falls back to the GIS worker.
 * `outputSchema` null: the connection has no schema for results, so the result comes back as
 * a local layer (pgPushdownLocal.ts).
 */
export type PushdownPlan = { ok: true; outputSchema: string | null } | { ok: false; reason: string };

/**
 * Decides push-down for one connection (issue 16): the algorithm must have an SQL form. The
 * output goes to the schema the person picked for results on that connection (writing to
 * their server is their choice, made once in the connection's settings), or, without one,
 * comes back as a local layer (nothing persistent is written to the server).
 */
export function planPushdown(connections: Connections, connectionId: string, algorithm: string): PushdownPlan {
  const spec = connections.get(connectionId);
  if (!spec) return { ok: false, reason: `there is no saved PostGIS connection '${connectionId}'` };
  if (!canPushDown(algorithm)) return { ok: false, reason: `${algorithm} has no form that runs inside PostGIS yet` };
  return { ok: true, outputSchema: spec.outputSchema || null };
}

export interface PushdownCall {
  connectionId: string;
  algorithm: string;
  /** The algorithm's layer params' tables, in its layerParams order. */
  tables: PgTableName[];
  /** The algorithm's other params (already checked by its catalogue schema). */
  params: Record<string, unknown>;
  /** The wished table name in the output schema; a free name is picked from it (`_2`, `_3`…). */
  outputName: string;
}

/**
 * Runs one algorithm inside the database (pushdown/runPushdown.ts) on a session of its own,
 * with a second connection for Stop (`pg_cancel_backend`). The output table never replaces
 * an existing one. Returns the table made and the engine's result.
 */
export async function runPushdownCall(
  connections: Connections,
  call: PushdownCall,
  opts: { signal?: AbortSignal; onProgress?: (fraction: number, message: string) => void } = {},
): Promise<PushdownResult> {
  const plan = planPushdown(connections, call.connectionId, call.algorithm);
  if (!plan.ok) throw new PushdownError('invalid_params', `Cannot run ${call.algorithm} in the database: ${plan.reason}`);
  const outputSchema = plan.outputSchema;
  if (!outputSchema)
    throw new PushdownError('invalid_params', `The connection '${call.connectionId}' has no schema for results to write the table into`);
  const { session, inputs } = await openPushdownSession(connections, call);
  try {
    const table = await freeTableName(session.client, outputSchema, call.outputName);
    return await runPushdown(
      session,
      { algorithm: call.algorithm, inputs, params: call.params, output: { schema: outputSchema, table, overwrite: false } },
      opts,
    );
  } finally {
    await session.client.end().catch(() => undefined);
  }
}

/**
 * A session of its own for one run (connected, the inputs described), with a second connection
 * for Stop; the caller ends `session.client`.
 */
export async function openPushdownSession(
  connections: Connections,
  call: Pick<PushdownCall, 'connectionId' | 'tables'>,
): Promise<{ session: PushdownSession; inputs: PgInput[] }> {
  const spec = connections.get(call.connectionId);
  if (!spec) throw new PushdownError('invalid_params', `There is no saved PostGIS connection '${call.connectionId}'`);
  const password = connections.password(call.connectionId);
  let client;
  try {
    client = await connectPg(spec, password);
  } catch (err) {
    throw new PushdownError('failed', classifyPgError(err, spec, password).reason, { cause: err });
  }
  try {
    const inputs: PgInput[] = [];
    for (const t of call.tables) {
      const d = await describePgInput(client, t);
      inputs.push({ schema: d.schema, table: d.table, geomColumn: d.geomColumn, srid: d.srid, keyColumn: d.keyColumn });
    }
    return { session: { client, openControl: () => connectPg(spec, password, { statementTimeoutMs: 10_000 }) }, inputs };
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
}

/** `name`, or `name_2`, `name_3`… : the first not taken by any relation in the schema. */
async function freeTableName(client: pg.Client, schema: string, name: string): Promise<string> {
  const taken = await client.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname LIKE $2`,
    [schema, `${name.replace(/[\\%_]/g, (m) => `\\${m}`)}%`],
  );
  const names = new Set(taken.rows.map((r) => r.relname));
  if (!names.has(name)) return name;
  for (let i = 2; ; i++) if (!names.has(`${name}_${i}`)) return `${name}_${i}`;
}
