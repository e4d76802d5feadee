import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server as NetServer, type Socket } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpToolServer, type McpToolHost } from './mcpToolServer.js';
import { SocketTransport } from './socketTransport.js';

export interface LocalSocketEndpoint {
  path: string;
  close(): Promise<void>;
}

/**
 * The app's always-on local MCP endpoint: a Unix socket (`<home>/mcp.sock`, mode 0600) or a
 * Windows named pipe, one MCP session per connection. `npm run mcp` bridges a client's stdio to
 * it. A socket file left by a crashed app is removed, but only when nothing answers on it: a
 * second app on the same data folder leaves the first one's endpoint alone and returns null.
 */
export async function startLocalSocketEndpoint(host: McpToolHost, path: string): Promise<LocalSocketEndpoint | null> {
  const unix = !path.startsWith('\\\\');
  if (unix && existsSync(path)) {
    if (await answers(path)) return null;
    unlinkSync(path);
  }
  const sessions = new Set<{ server: Server; socket: Socket }>();
  const listener: NetServer = createServer((socket) => {
    const server = createMcpToolServer(host);
    const session = { server, socket };
    sessions.add(session);
    const transport = new SocketTransport(socket);
    server.onclose = () => sessions.delete(session);
    server.connect(transport).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(path, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  listener.on('error', (err) => console.error('[mcp] local socket:', err));
  if (unix) chmodSync(path, 0o600);
  return {
    path,
    async close() {
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const s of [...sessions]) {
        await s.server.close().catch(() => undefined);
        s.socket.destroy();
      }
      await closed;
      // net.Server removes its Unix socket file on close; a leftover would only be stale.
      if (unix && existsSync(path)) {
        try {
          unlinkSync(path);
        } catch {
          /* already gone */
        }
      }
    },
  };
}

/** Whether a live process accepts connections on the socket (a stale file refuses them). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}
