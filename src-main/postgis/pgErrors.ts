import type { PgConnectionSpec, PgFailure } from '../../src-shared/domain/pgConnection.js';

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'EADDRNOTAVAIL',
  'EPIPE',
]);
const TLS = /^(ERR_TLS_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|CERT_|ERR_SSL_)/;

/**
 * A driver or server error as one clear sentence and a code the panel (and later the tools)
 * can act on. Names are quoted with JSON.stringify so an odd one is shown as it is; the
 * password is cut out of any message, whatever the driver put in it.
 */
export function classifyPgError(err: unknown, spec: PgConnectionSpec, password: string | null): PgFailure {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const raw = typeof e.message === 'string' ? e.message : String(err);
  const message = password ? raw.split(password).join('•••') : raw;
  const where = `${spec.host}:${spec.port}`;
  const fail = (c: PgFailure['code'], reason: string): PgFailure => ({ ok: false, code: c, reason });

  if (UNREACHABLE.has(code)) return fail('unreachable', `Nothing answers at ${where} (${code}).`);
  // Something answered but hung up during the start-up exchange: not a PostgreSQL server, or
  // one that dropped us (too many connections are reported by the server with a code instead).
  if (/Connection terminated unexpectedly/i.test(message))
    return fail('unreachable', `${where} closed the connection during start-up (is it a PostgreSQL server?).`);
  if (/timeout expired|connection timeout/i.test(message) || code === 'ETIMEDOUT')
    return fail('timeout', `${where} did not answer in time (${message}).`);
  if (code === '28P01') return fail('auth_failed', `The server refused the password for user ${JSON.stringify(spec.user)}.`);
  if (code === '28000') return fail('auth_failed', `The server refused user ${JSON.stringify(spec.user)}: ${message}`);
  if (/SASL|password must be a string|client password/i.test(message))
    return fail('auth_failed', `The server asks for a password for user ${JSON.stringify(spec.user)} and none is stored.`);
  if (code === '3D000') return fail('database_missing', `There is no database ${JSON.stringify(spec.database)} at ${where}.`);
  if (/does not support SSL/i.test(message)) return fail('ssl', `${where} does not offer TLS, and SSL mode '${spec.sslmode}' requires it.`);
  if (TLS.test(code) || /certificate|self.signed/i.test(message)) return fail('ssl', `TLS with ${where} failed: ${message}`);
  if (code === '57014') return fail('timeout', `A statement ran past its time limit (${message}).`);
  return fail('error', code ? `${message} (${code})` : message);
}
