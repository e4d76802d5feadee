import type { PgConnectionSpec } from '../../src-shared/domain/pgConnection.js';
import type { DatabaseAccess } from '../gis-worker/protocol.js';
import type { PgConnectionStore } from './pgConnectionStore.js';

/**
 * The origin a PostGIS connection stands for in approval dialogs and the project's remembered
 * grants (issue 16): `postgres://host:port/database`. Two databases on one server are two
 * origins: approving one is not approving the other.
 */
export function pgOrigin(spec: Pick<PgConnectionSpec, 'host' | 'port' | 'database'>): string {
  const host = spec.host.includes(':') && !spec.host.startsWith('[') ? `[${spec.host}]` : spec.host;
  return `postgres://${host.toLowerCase()}:${spec.port}/${encodeURIComponent(spec.database)}`;
}

/** Every saved connection as the GIS worker needs it to open one (passwords included: main → worker only). */
export function databasesForWorker(store: Pick<PgConnectionStore, 'list' | 'password'>): Record<string, DatabaseAccess> {
  const out: Record<string, DatabaseAccess> = {};
  for (const spec of store.list()) {
    out[spec.id] = {
      host: spec.host,
      port: spec.port,
      database: spec.database,
      user: spec.user,
      password: store.password(spec.id),
      sslmode: spec.sslmode,
      origin: pgOrigin(spec),
    };
  }
  return out;
}
