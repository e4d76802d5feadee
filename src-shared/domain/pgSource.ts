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
 * with a dot in it cannot be loaded); a bare name is in `public`, as GDAL reads it.
 */
export function parsePgTable(sublayer: string): PgTableName | null {
  const text = sublayer.trim();
  if (!text || /\p{Cc}/u.test(text)) return null;
  const dot = text.indexOf('.');
  if (dot < 0) return { schema: 'public', table: text };
  const schema = text.slice(0, dot);
  const table = text.slice(dot + 1);
  return schema && table ? { schema, table } : null;
}

/** Whether an origin is a PostGIS connection's server (`postgres://host:port/database`, main's `pgOrigin`). */
export function isDatabaseOrigin(origin: string): boolean {
  return /^postgres:\/\/[^\s/]+\/\S+$/.test(origin);
}
