import type { MethodHandlers } from '../../src-shared/bridge/contract.js';
import type { PgFailure } from '../../src-shared/domain/pgConnection.js';
import { pgTableSublayer, postgisSource } from '../../src-shared/domain/pgSource.js';
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
}

const unknown = (id: string): PgFailure => ({ ok: false, code: 'unknown_connection', reason: `There is no saved connection '${id}'.` });

/**
 * The bridge's PostGIS methods. The bridge is the person's: testing or browsing a connection
 * here connects without asking, like opening a file from the folder browser.
 *
 * The network-origin gate for the agent belongs to the tools that will use a connection (later
 * sessions: loading a table, push-down, export). There, in `prepare`/the dispatcher's
 * capability step (tool-host/callCapabilities.ts), a call naming a connection id is a network
 * call to `postgres://host:port`: asked on first use, then remembered per project like any
 * other origin grant. Tools name a connection by id only, so the model can never supply a
 * host or a connection string.
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
    'postgis/load': async ({ id, schema, table }) => {
      if (!connections.get(id)) return toolError('invalid_params', unknown(id).reason, false);
      return deps.runForPerson('layers.load', { path: formatSource({ path: postgisSource(id), sublayer: pgTableSublayer({ schema, table }) }) });
    },
  };
}
