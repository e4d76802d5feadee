import pg from 'pg';
import type { PgConnectionSpec, PgFailure } from '../../src-shared/domain/pgConnection.js';
import { classifyPgError } from './pgErrors.js';

export interface PgClientOptions {
  /** How long to wait for the server to accept (TCP + TLS + authentication). */
  connectTimeoutMs?: number;
  /** Server-side limit of every statement of the session. */
  statementTimeoutMs?: number;
}

const DEFAULTS = { connectTimeoutMs: 10_000, statementTimeoutMs: 30_000 };

type Ssl = false | { rejectUnauthorized: boolean };

/** libpq's sslmode as node-postgres options (`prefer` is tried as `require`, then without TLS). */
function sslFor(mode: PgConnectionSpec['sslmode']): Ssl {
  if (mode === 'disable') return false;
  // require: encrypted, the certificate not checked (libpq's meaning); verify-full: checked
  // against the CA store and the host name.
  return { rejectUnauthorized: mode === 'verify-full' };
}

/**
 * The driver's configuration, as an object: every field is a separate value that reaches the
 * server as such, so a quote, `;`, space, newline or `options=` in a name cannot change what
 * is connected to (nothing is ever concatenated into a connection string). Every field is set,
 * so PGHOST/PGDATABASE/PGUSER from the environment never fill a gap.
 */
export function pgClientConfig(spec: PgConnectionSpec, password: string | null, ssl: Ssl, options: PgClientOptions = {}): pg.ClientConfig {
  const o = { ...DEFAULTS, ...options };
  return {
    host: spec.host.replace(/^\[(.*)\]$/, '$1'),
    port: spec.port,
    database: spec.database,
    user: spec.user,
    // A function, so a missing password stays missing rather than read from PGPASSWORD or
    // ~/.pgpass: what connects is what the person saved.
    password: () => password ?? '',
    ssl,
    application_name: 'mapwright',
    connectionTimeoutMillis: o.connectTimeoutMs,
    statement_timeout: o.statementTimeoutMs,
    // A client-side cap too, for a server that stops answering mid-query.
    query_timeout: o.statementTimeoutMs + 5_000,
    keepAlive: true,
  };
}

async function connectOnce(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(config);
  // An idle client's network error is emitted, and an unheard 'error' would take main down.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
}

/** A connected client for a saved connection; the caller ends it. Throws the driver's error. */
export async function connectPg(spec: PgConnectionSpec, password: string | null, options: PgClientOptions = {}): Promise<pg.Client> {
  try {
    return await connectOnce(pgClientConfig(spec, password, sslFor(spec.sslmode), options));
  } catch (err) {
    if (spec.sslmode === 'prefer' && err instanceof Error && /does not support SSL/i.test(err.message))
      return connectOnce(pgClientConfig(spec, password, false, options));
    throw err;
  }
}

/** Connects, runs `work`, always ends the session; any failure comes back as a PgFailure. */
export async function withPgClient<T>(
  spec: PgConnectionSpec,
  password: string | null,
  work: (client: pg.Client) => Promise<T>,
  options: PgClientOptions = {},
): Promise<T | PgFailure> {
  let client: pg.Client | null = null;
  try {
    client = await connectPg(spec, password, options);
    return await work(client);
  } catch (err) {
    return classifyPgError(err, spec, password);
  } finally {
    await client?.end().catch(() => undefined);
  }
}
