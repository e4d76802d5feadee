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
/** The sublayer prefix of a raster column (pgRasterSublayer). */
const RASTER_PREFIX = 'raster:';

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
 * query layer's sublayer (`sql:…`) and a raster's (`raster:…`).
 */
export function parsePgTable(sublayer: string): PgTableName | null {
  const text = sublayer.trim();
  if (!text || /\p{Cc}/u.test(text) || isPgQuerySublayer(text) || text.toLowerCase().startsWith(RASTER_PREFIX)) return null;
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

/** `%XX` for each character of `chars` (and control characters); see unescapeSourceText. */
function escapeSourceText(text: string, chars: RegExp): string {
  return text.replace(chars, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The reverse of escapeSourceText; null when a `%` is not one of its ASCII escapes. */
function unescapeSourceText(text: string): string | null {
  if (/%(?![0-7][0-9A-Fa-f])/.test(text)) return null;
  return text.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function pgQuerySublayer(sql: string): string {
  return QUERY_PREFIX + escapeSourceText(sql.trim(), /[%|\p{Cc}]/gu);
}

export function isPgQuerySublayer(sublayer: string): boolean {
  return sublayer.trim().toLowerCase().startsWith(QUERY_PREFIX);
}

/** The query of a `sql:…` sublayer; null for a table's sublayer or a malformed escape. */
export function pgQueryOf(sublayer: string): string | null {
  const text = sublayer.trim();
  if (!isPgQuerySublayer(text)) return null;
  // Only what pgQuerySublayer escapes (ASCII) is decoded; any other `%` makes the text malformed.
  const sql = unescapeSourceText(text.slice(QUERY_PREFIX.length));
  return sql?.trim() ? sql : null;
}

/**
 * A raster column of a PostGIS table as a layer: the sublayer `raster:<schema>.<table>.<column>`,
 * each name with `%`, `.`, `|` and control characters escaped as `%XX` (so a dot in a name
 * cannot shift the parts). GDAL's PostGIS Raster driver reads it (gis-worker/databases.ts).
 */
export interface PgRasterName extends PgTableName {
  column: string;
}

export function pgRasterSublayer(r: PgRasterName): string {
  return RASTER_PREFIX + [r.schema, r.table, r.column].map((n) => escapeSourceText(n, /[%.|\p{Cc}]/gu)).join('.');
}

/** The schema, table and raster column of a `raster:…` sublayer; null for anything else or a malformed one. */
export function pgRasterOf(sublayer: string): PgRasterName | null {
  const text = sublayer.trim();
  if (!text.toLowerCase().startsWith(RASTER_PREFIX)) return null;
  const parts = text.slice(RASTER_PREFIX.length).split('.').map(unescapeSourceText);
  if (parts.length !== 3 || parts.some((p) => !p || /\p{Cc}/u.test(p))) return null;
  const [schema, table, column] = parts as [string, string, string];
  return { schema, table, column };
}

/** Whether an origin is a PostGIS connection's server (`postgres://host:port/database`, main's `pgOrigin`). */
export function isDatabaseOrigin(origin: string): boolean {
  return /^postgres:\/\/[^\s/]+\/\S+$/.test(origin);
}
