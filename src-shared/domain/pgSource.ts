import { PgConnectionId } from './pgConnection.js';
import { parseSource } from './source.js';

/**
 * How a project layer and a tool name a PostGIS table (issue 16): the source
 * `postgis://<connection id>` with the sublayer `<schema>.<table>`, as GDAL names a layer
 * of a multi-layer file (`postgis://office|layername=public.roads`). The id is all a source
 * says about the server: main resolves it to the saved connection (host, user, password from
 * the key store), so no string the model writes can name a host or carry a connection string.
 */
export const POSTGIS_SCHEME = 'postgis://';

export function postgisSource(connectionId: string): string {
  return `${POSTGIS_SCHEME}${connectionId}`;
}

/**
 * The connection id of a `postgis://…` source (sublayer part ignored); null for any other
 * source, `false` for a `postgis://` source whose id is malformed.
 */
export function postgisConnectionOf(source: string): string | null | false {
  const path = parseSource(source).path.trim();
  if (!path.toLowerCase().startsWith(POSTGIS_SCHEME)) return null;
  const id = path.slice(POSTGIS_SCHEME.length).replace(/\/$/, '');
  return PgConnectionId.safeParse(id).success ? id : false;
}

export interface PgTableName {
  schema: string;
  table: string;
}

/** `schema.table` as the sublayer of a PostGIS layer. */
export function pgTableSublayer(t: PgTableName): string {
  return `${t.schema}.${t.table}`;
}

/**
 * The schema and table of a PostGIS layer's sublayer (split at the first dot: a schema name
 * with a dot in it cannot be loaded); a bare name is in `public`, as GDAL reads it. Null for a
 * query layer's sublayer (`sql:…`).
 */
export function parsePgTable(sublayer: string): PgTableName | null {
  const text = sublayer.trim();
  if (!text || /\p{Cc}/u.test(text) || isPgQuerySublayer(text)) return null;
  const dot = text.indexOf('.');
  if (dot < 0) return { schema: 'public', table: text };
  const schema = text.slice(0, dot);
  const table = text.slice(dot + 1);
  return schema && table ? { schema, table } : null;
}

/**
 * A live server query kept as a layer (issue 16, `inspect_save_query` kept as a view): the
 * sublayer `sql:<query>` of a `postgis://<id>` source, so the project holds the definition and
 * every read runs it again on the server. The text stays readable; only what a source string
 * cannot hold is escaped as `%XX`: `%` itself, `|` (it ends a sublayer) and control characters
 * (line breaks). Whoever opens such a layer checks the query again (checkServerQuery) and runs
 * it read-only: a source string is as untrusted as any other text.
 */
const QUERY_PREFIX = 'sql:';

export function pgQuerySublayer(sql: string): string {
  return QUERY_PREFIX + sql.trim().replace(/[%|\p{Cc}]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function isPgQuerySublayer(sublayer: string): boolean {
  return sublayer.trim().toLowerCase().startsWith(QUERY_PREFIX);
}

/** The query of a `sql:…` sublayer; null for a table's sublayer or a malformed escape. */
export function pgQueryOf(sublayer: string): string | null {
  const text = sublayer.trim();
  if (!isPgQuerySublayer(text)) return null;
  const body = text.slice(QUERY_PREFIX.length);
  // Only what pgQuerySublayer escapes (ASCII) is decoded; any other `%` makes the text malformed.
  if (/%(?![0-7][0-9A-Fa-f])/.test(body)) return null;
  const sql = body.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return sql.trim() ? sql : null;
}

/** Whether an origin is a PostGIS connection's server (`postgres://host:port/database`, main's `pgOrigin`). */
export function isDatabaseOrigin(origin: string): boolean {
  return /^postgres:\/\/[^\s/]+\/\S+$/.test(origin);
}
