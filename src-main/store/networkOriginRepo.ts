import { originOfTarget } from '../../src-shared/security/sourceClass.js';
import { isDatabaseOrigin } from '../../src-shared/domain/pgSource.js';
import type { Db } from './openProjectDb.js';

/**
 * Network origins the person approved for this project's map sources (XYZ/TMS, WMS, WMTS,
 * COG and FlatGeobuf over HTTP) and PostGIS connections (issue 16): the first source from an origin always goes through the
 * network dialog, which names it; once approved, the origin is remembered here — for this
 * project and that exact origin only (`scheme://host:port`, as `originOfUrl` spells it).
 */
export class NetworkOriginRepo {
  constructor(private readonly db: Db) {}

  /** Every granted origin, oldest first. */
  list(): string[] {
    const rows = this.db.prepare('SELECT origin FROM network_origin_grants ORDER BY granted_at, origin').all() as { origin: string }[];
    return rows.map((r) => r.origin);
  }

  has(origin: string): boolean {
    const key = normalise(origin);
    return key !== null && this.db.prepare('SELECT 1 FROM network_origin_grants WHERE origin = ?').get(key) !== undefined;
  }

  /** Remembers an origin (idempotent); anything that is not an http(s) or PostGIS origin is refused. */
  grant(origin: string): void {
    const key = normalise(origin);
    if (!key) throw new Error(`'${origin}' is not an http(s) or PostGIS origin`);
    this.db.prepare('INSERT OR IGNORE INTO network_origin_grants (origin, granted_at) VALUES (?, ?)').run(key, new Date().toISOString());
  }

  /** Forgets an origin; true when it was granted. */
  revoke(origin: string): boolean {
    const key = normalise(origin);
    return key !== null && this.db.prepare('DELETE FROM network_origin_grants WHERE origin = ?').run(key).changes > 0;
  }
}

/**
 * The one spelling of an http(s) origin, or a PostGIS connection's server as `pgOrigin`
 * spells it (issue 16); null for anything else.
 */
function normalise(origin: string): string | null {
  if (isDatabaseOrigin(origin)) return origin;
  const o = originOfTarget(origin);
  return o && /^https?:\/\//.test(o) ? o : null;
}
