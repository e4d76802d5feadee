import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProjectSession } from '../../composition/projectSession.js';
import type { McpServing } from '../../mcp-server/mcpEndpoints.js';
import { forkLauncher } from '../../worker-host/forkLauncher.js';
import { appDataDir } from '../appDataDir.js';
import { startWebServer } from './webServer.js';

/**
 * Entry of the web host (bundled to dist/main/web-host.js). Prints one line, the URL with its
 * token, so scripts and tests can read it; with `MAPWRIGHT_MCP_HTTP` on, a second line after it
 * names the MCP endpoint and where its token is.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const portArg = args.indexOf('--port');
  const port = portArg >= 0 ? Number(args[portArg + 1]) : Number(process.env.MAPWRIGHT_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port ${args[portArg + 1]}`);

  const distMain = dirname(fileURLToPath(import.meta.url));
  const root = resolve(distMain, '..', '..');
  let mcp: McpServing | null = null;
  const host = await startWebServer({
    port,
    rendererDir: join(root, 'dist', 'renderer'),
    services: async ({ dataBase, dataQuery }) => {
      const services = await createProjectSession({
        home: appDataDir(),
        host: 'web',
        launchWorker: forkLauncher(join(distMain, 'gis-worker.js')),
        dataBase,
        dataQuery,
        assetsDir: join(root, 'assets'),
      });
      mcp = services.mcp;
      return services;
    },
  });
  process.stdout.write(`Mapwright web host: ${host.url}\n`);
  const http = (mcp as McpServing | null)?.http;
  if (http) process.stdout.write(`MCP endpoint: ${http.url} (token in ${http.tokenPath})\n`);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void host.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`Mapwright web host failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
