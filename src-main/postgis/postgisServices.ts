import type { ToolResult } from '../../src-shared/tools/toolResult.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import type { PgConnectionStore } from './pgConnectionStore.js';
import { databasesForWorker, pgOrigin } from './pgOrigin.js';
import { PgSessions } from './pgSessions.js';
import { createPgTileService } from './pgTileService.js';
import { createPostgisHandlers } from './postgisHandlers.js';

export interface PostgisServiceDeps {
  connections: PgConnectionStore;
  worker: Pick<GisWorkerClient, 'setDatabases'>;
  /** The SecretStore's one-sentence note (where passwords are kept), for the panel. */
  passwordStore: string;
  runForPerson(toolId: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Remembers an approved origin for the open project. */
  grantOrigin(origin: string): void;
}

/**
 * Main's PostGIS side for one project's services (issue 16), wired once: the bridge methods,
 * the server tiles of the data routes, and the saved connections kept in step — the GIS worker
 * opens `postgis://<id>` sources only with what main tells it, and main's own sessions start
 * over whenever the list changes.
 */
export function createPostgisServices(d: PostgisServiceDeps) {
  const sessions = new PgSessions(d.connections);
  const serverTiles = createPgTileService(sessions);
  const changed = () => {
    d.worker.setDatabases(databasesForWorker(d.connections));
    sessions.reset();
    serverTiles.reset();
  };
  changed();
  const stopWatch = d.connections.onChange(changed);
  const handlers = createPostgisHandlers({
    connections: d.connections,
    passwordStore: d.passwordStore,
    runForPerson: d.runForPerson,
    // The person picked the table in their own list: their use of the server is the approval.
    rememberOrigin: (id) => {
      const spec = d.connections.get(id);
      if (spec) d.grantOrigin(pgOrigin(spec));
    },
  });
  return {
    handlers,
    serverTiles,
    close(): void {
      stopWatch();
      sessions.reset();
    },
  };
}
