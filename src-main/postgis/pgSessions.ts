import type pg from 'pg';
import type { PgConnectionSpec } from '../../src-shared/domain/pgConnection.js';
import { connectPg, type PgClientOptions } from './pgClient.js';

export interface PgConnectionSource {
  get(id: string): PgConnectionSpec | null;
  password(id: string): string | null;
}

/** Idle sessions kept per connection: a tile or query reuses one rather than connecting anew. */
const IDLE_PER_CONNECTION = 4;

/**
 * Main's sessions to the saved PostGIS connections (issue 16), for work that comes often and
 * is short (server tiles). Connected lazily with the saved spec and password; a session that
 * failed is dropped, not reused; `reset` (the connections changed) ends them all.
 */
export class PgSessions {
  private readonly idle = new Map<string, pg.Client[]>();
  private generation = 0;

  constructor(
    private readonly connections: PgConnectionSource,
    private readonly options: PgClientOptions = { statementTimeoutMs: 20_000 },
  ) {}

  /** Runs `work` on a session of connection `id`; throws when there is no such connection or the server refuses. */
  async use<T>(id: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const spec = this.connections.get(id);
    if (!spec) throw new Error(`There is no saved PostGIS connection '${id}'`);
    const generation = this.generation;
    const client = this.idle.get(id)?.pop() ?? (await connectPg(spec, this.connections.password(id), this.options));
    let healthy = true;
    try {
      return await work(client);
    } catch (err) {
      // A statement error leaves the session usable; a broken socket does not. Drop it either way.
      healthy = false;
      throw err;
    } finally {
      const pool = this.idle.get(id) ?? [];
      if (healthy && generation === this.generation && pool.length < IDLE_PER_CONNECTION) {
        pool.push(client);
        this.idle.set(id, pool);
      } else void client.end().catch(() => undefined);
    }
  }

  /** Ends every idle session (the saved connections changed, or main is closing). */
  reset(): void {
    this.generation++;
    for (const clients of this.idle.values()) for (const c of clients) void c.end().catch(() => undefined);
    this.idle.clear();
  }
}
