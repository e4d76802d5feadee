import type { MethodHandlers } from '../../src-shared/bridge/contract.js';
import type { PgFailure } from '../../src-shared/domain/pgConnection.js';
import { pgRasterSublayer, pgTableSublayer, postgisSource } from '../../src-shared/domain/pgSource.js';
import { formatSource } from '../../src-shared/domain/source.js';
import { toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import { browsePg } from './pgBrowse.js';
import type { PgClientOptions } from './pgClient.js';
import type { PgConnectionStore } from './pgConnectionStore.js';
import { testPgConnection } from './pgTestConnection.js';

type PostgisMethod =
  | 'postgis/connections'
  | 'postgis/save-connection'
  | 'postgis/delete-connection'
  | 'postgis/test-connection'
  | 'postgis/browse'
  | 'postgis/load';

export interface PostgisHandlerDeps {
  connections: PgConnectionStore;
  /** The SecretStore's one-sentence note (where passwords are kept), for the panel. */
  passwordStore: string;
  client?: PgClientOptions;
  /** Runs a tool for the person (trusted: no dialog), as `files/load` does. */
  runForPerson(toolId: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Remembers the connection's server as approved for the open project. */
  rememberOrigin(id: string): void;
}

const unknown = (id: string): PgFailure => ({ ok: false, code: 'unknown_connection', reason: `There is no saved connection '${id}'.` });

/**
 * The bridge's PostGIS methods. The bridge is the person's: testing or browsing a connection
 * here connects without asking, like opening a file from the folder browser.
 *
 * The agent's calls are judged below the tools: a `postgis://<id>` source or a connection
 * parameter (`databaseParam`) is a network call to the connection's server
 * (`postgres://host:port/database`, pgOrigin.ts), asked on first use and then remembered for
 * the project (the dispatcher's `rememberOrigins`). Tools name a connection by id only, so the
 * model can never supply a host or a connection string. Loading from the panel here is the
 * person's own use of the server: it is remembered without a dialog.
 */
export function createPostgisHandlers(deps: PostgisHandlerDeps): Pick<MethodHandlers, PostgisMethod> {
  const { connections } = deps;
  return {
    'postgis/connections': async () => ({ connections: connections.list(), passwordStore: deps.passwordStore }),
    'postgis/save-connection': async ({ connection, password }) => ({ connection: connections.save(connection, password) }),
    'postgis/delete-connection': async ({ id }) => ({ deleted: connections.delete(id) }),
    'postgis/test-connection': async ({ id }) => {
      const spec = connections.get(id);
      return spec ? testPgConnection(spec, connections.password(id), deps.client) : unknown(id);
    },
    'postgis/browse': async ({ id }) => {
      const spec = connections.get(id);
      return spec ? browsePg(spec, connections.password(id), deps.client) : unknown(id);
    },
    'postgis/load': async ({ id, schema, table, raster }) => {
      if (!connections.get(id)) return toolError('invalid_params', unknown(id).reason, false);
      deps.rememberOrigin(id);
      const sublayer = raster ? pgRasterSublayer({ schema, table, column: raster }) : pgTableSublayer({ schema, table });
      return deps.runForPerson('layers.load', { path: formatSource({ path: postgisSource(id), sublayer }) });
    },
  };
}
