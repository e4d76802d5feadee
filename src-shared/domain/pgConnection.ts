import { z } from 'zod';

/**
 * A PostgreSQL/PostGIS connection the person added (issue 16). Kept in the app settings, not
 * in a project; the password is never part of it (main keeps it in the SecretStore under
 * `postgis:<id>`). Tools and the model name a connection by `id`, never by a connection string.
 */

/** No control characters anywhere: a newline or NUL in a name is never meant. */
const noControl = (s: string) => !/\p{Cc}/u.test(s);

export const PgConnectionId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lower-case letters, digits, _ and -, at most 64');

/**
 * A host name, an IPv4 address or an IPv6 address (bare or in brackets). Nothing else: no
 * spaces, quotes, `=` or `/` (a leading `/` would make the driver use a Unix socket folder).
 */
export const PgHost = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/, 'a host name or an IP address');

/** libpq's names; `prefer` tries TLS without checking the certificate and falls back to none. */
export const PgSslMode = z.enum(['disable', 'prefer', 'require', 'verify-full']);
export type PgSslMode = z.infer<typeof PgSslMode>;

export const PgConnectionSpec = z
  .object({
    id: PgConnectionId,
    /** What the person calls it; shown in lists and in approval dialogs. */
    name: z.string().trim().min(1).max(120).refine(noControl, 'no control characters'),
    host: PgHost,
    port: z.number().int().min(1).max(65535).default(5432),
    /** PostgreSQL allows any characters in these names; they are passed as values, never parsed. */
    database: z.string().min(1).max(63).refine(noControl, 'no control characters'),
    user: z.string().min(1).max(63).refine(noControl, 'no control characters'),
    sslmode: PgSslMode.default('prefer'),
    /**
     * The schema the person picked for results computed on this server (push-down, exports);
     * null: results come back as local layers and nothing is written to the server.
     */
    outputSchema: z.string().min(1).max(63).refine(noControl, 'no control characters').nullable().default(null),
  })
  .strict();
export type PgConnectionSpec = z.infer<typeof PgConnectionSpec>;

/** What the person fills in: a new connection has no id yet (main makes one). */
export const PgConnectionDraft = PgConnectionSpec.extend({ id: PgConnectionId.optional() }).strict();
export type PgConnectionDraft = z.infer<typeof PgConnectionDraft>;

/** A listed connection: the spec and whether a password is stored (never the password). */
export const PgConnectionListed = PgConnectionSpec.extend({ hasPassword: z.boolean() });
export type PgConnectionListed = z.infer<typeof PgConnectionListed>;

/** Why a connection failed, for the panel and, later, for tool errors. */
export const PgFailureCode = z.enum([
  'unknown_connection',
  'unreachable',
  'timeout',
  'auth_failed',
  'database_missing',
  'ssl',
  'postgis_missing',
  'error',
]);
export type PgFailureCode = z.infer<typeof PgFailureCode>;

export const PgFailure = z.object({ ok: z.literal(false), code: PgFailureCode, reason: z.string() });
export type PgFailure = z.infer<typeof PgFailure>;

export const PgTestReport = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** `server_version`, e.g. '15.14'. */
    server: z.string(),
    /** The postgis extension's version, e.g. '3.3.2'. */
    postgis: z.string(),
    /** Whether the session is encrypted (TLS). */
    ssl: z.boolean(),
  }),
  PgFailure,
]);
export type PgTestReport = z.infer<typeof PgTestReport>;

export const PgSpatialColumn = z.object({
  name: z.string(),
  kind: z.enum(['geometry', 'geography', 'raster']),
  /** `MULTIPOLYGON`, `POINT`, `GEOMETRY` (unconstrained)…; null for rasters. */
  geometryType: z.string().nullable(),
  /** 0 when the column has no SRID constraint. */
  srid: z.number().int(),
  dims: z.number().int().nullable(),
});
export type PgSpatialColumn = z.infer<typeof PgSpatialColumn>;

export const PgSpatialTable = z.object({
  name: z.string(),
  kind: z.enum(['table', 'view', 'materialized_view', 'foreign_table', 'partitioned_table']),
  /**
   * Rows: the planner's estimate (`pg_class.reltuples`) when there is one; an exact count for a
   * small table never analysed (at most 8 MB on disk); null otherwise (views, large tables
   * never analysed) — counting those could take minutes.
   */
  rows: z.number().int().nullable(),
  rowsExact: z.boolean(),
  columns: z.array(PgSpatialColumn),
});
export type PgSpatialTable = z.infer<typeof PgSpatialTable>;

export const PgBrowseResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** Every schema the user may use (system schemas left out), each with its spatial tables. */
    schemas: z.array(z.object({ name: z.string(), tables: z.array(PgSpatialTable) })),
  }),
  PgFailure,
]);
export type PgBrowseResult = z.infer<typeof PgBrowseResult>;
