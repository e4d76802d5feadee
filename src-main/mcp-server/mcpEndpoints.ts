import { startHttpEndpoint, mcpHttpPortFromEnv, type HttpEndpoint } from './httpEndpoint.js';
import { startLocalSocketEndpoint, type LocalSocketEndpoint } from './localSocketEndpoint.js';
import type { McpToolHost } from './mcpToolServer.js';
import { mcpSocketPath } from './socketPath.js';

/** Where the running app serves MCP, for the host to print. */
export interface McpServing {
  /** The local socket (or named pipe) `npm run mcp` connects to; null when another app holds it or it failed. */
  socketPath: string | null;
  /** The opt-in HTTP endpoint (`MAPWRIGHT_MCP_HTTP`), or null. */
  http: { url: string; tokenPath: string } | null;
}

export interface McpEndpoints extends McpServing {
  close(): Promise<void>;
}

/**
 * Mapwright as an MCP server, while the app runs: the local socket always, the loopback HTTP
 * endpoint when `MAPWRIGHT_MCP_HTTP` asks for it. Neither failing stops the app: the reason
 * goes to stderr and the app runs without it.
 */
export async function startMcpEndpoints(opts: { home: string; host: McpToolHost; env?: NodeJS.ProcessEnv }): Promise<McpEndpoints> {
  let socket: LocalSocketEndpoint | null = null;
  let http: HttpEndpoint | null = null;
  try {
    socket = await startLocalSocketEndpoint(opts.host, mcpSocketPath(opts.home));
    if (!socket) console.error(`[mcp] another Mapwright app already serves MCP at ${mcpSocketPath(opts.home)}`);
  } catch (err) {
    console.error(`[mcp] the local MCP socket could not start: ${err instanceof Error ? err.message : String(err)}`);
  }
  const wanted = mcpHttpPortFromEnv(opts.env ?? process.env);
  if ('error' in wanted) console.error(`[mcp] ${wanted.error}; the HTTP endpoint is off.`);
  else if (wanted.port !== null) {
    try {
      http = await startHttpEndpoint(opts.host, { home: opts.home, port: wanted.port });
    } catch (err) {
      console.error(`[mcp] the HTTP endpoint could not start on port ${wanted.port}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    socketPath: socket?.path ?? null,
    http: http ? { url: http.url, tokenPath: http.tokenPath } : null,
    async close() {
      await Promise.all([socket?.close(), http?.close()]);
    },
  };
}
