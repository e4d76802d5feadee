import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpToolServer, type McpToolHost } from './mcpToolServer.js';

/** The port `MAPWRIGHT_MCP_HTTP=1` listens on; `MAPWRIGHT_MCP_HTTP=<port>` picks another. */
export const DEFAULT_MCP_HTTP_PORT = 47474;
/** A JSON-RPC request body larger than this is refused (413): tool arguments are small. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Sessions kept at once: a client that vanished without DELETE gives way to new ones, oldest first. */
const MAX_SESSIONS = 32;
const PATH = '/mcp';
const TOKEN_FILE = 'mcp-token';

/**
 * `MAPWRIGHT_MCP_HTTP`: unset, empty, `0`, `false` or `off` → no HTTP endpoint; `1`, `true`,
 * `on` or `yes` → the default port; a port number (1024–65535) → that port. Anything else is
 * refused with a reason rather than guessed.
 */
export function mcpHttpPortFromEnv(env: NodeJS.ProcessEnv = process.env): { port: number | null } | { error: string } {
  const raw = (env.MAPWRIGHT_MCP_HTTP ?? '').trim().toLowerCase();
  if (['', '0', 'false', 'off', 'no'].includes(raw)) return { port: null };
  if (['1', 'true', 'on', 'yes'].includes(raw)) return { port: DEFAULT_MCP_HTTP_PORT };
  const port = Number(raw);
  if (/^\d+$/.test(raw) && port >= 1024 && port <= 65535) return { port };
  return { error: `MAPWRIGHT_MCP_HTTP=${env.MAPWRIGHT_MCP_HTTP} is neither 1 nor a port from 1024 to 65535` };
}

/**
 * The endpoint's bearer token: 32 random bytes (hex) in `<home>/mcp-token`, mode 0600, made once
 * and reused across runs so a client's configuration keeps working.
 */
export function mcpToken(home: string): { token: string; path: string } {
  const path = join(home, TOKEN_FILE);
  if (existsSync(path)) {
    const token = readFileSync(path, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(token)) {
      chmodSync(path, 0o600);
      return { token, path };
    }
  }
  const token = randomBytes(32).toString('hex');
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { token, path };
}

export interface HttpEndpoint {
  url: string;
  port: number;
  tokenPath: string;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
}

/**
 * The opt-in streamable-HTTP MCP endpoint: `http://127.0.0.1:<port>/mcp`, loopback only. Every
 * request needs `Authorization: Bearer <token>`; its Host must be a loopback name with this
 * port and it may carry no `Origin` (a web page reaching it through DNS rebinding, or at all);
 * bodies are capped. Each client session gets its own MCP server over the one tool layer.
 */
export async function startHttpEndpoint(
  host: McpToolHost,
  options: { home: string; port: number; maxBodyBytes?: number },
): Promise<HttpEndpoint> {
  const { token, path: tokenPath } = mcpToken(options.home);
  const expected = digest(token);
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const sessions = new Map<string, Session>();
  let port = options.port;

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, `MCP endpoint error: ${err instanceof Error ? err.message : String(err)}`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== PATH) return reply(res, 404, 'Not found: the MCP endpoint is /mcp.');
    if (!loopbackHost(req.headers.host, port)) return reply(res, 403, 'Forbidden: the Host header must be 127.0.0.1 or localhost.');
    if (req.headers.origin !== undefined) return reply(res, 403, 'Forbidden: browser pages may not call the MCP endpoint.');
    if (!authorised(req.headers.authorization, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="mapwright-mcp"');
      return reply(res, 401, `Unauthorized: send Authorization: Bearer <token>; the token is in ${tokenPath}.`);
    }
    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'POST') {
      const body = await readJson(req, maxBody);
      if (!body.ok) return reply(res, body.status, body.message);
      const known = sessionId ? sessions.get(sessionId) : undefined;
      if (known) return known.transport.handleRequest(req, res, body.value);
      if (sessionId) return rpcError(res, 404, 'Session not found: initialize a new session.');
      if (!isInitializeRequest(body.value)) return rpcError(res, 400, 'No session: the first request must be initialize.');
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, session);
          for (const [oldId, old] of sessions) {
            if (sessions.size <= MAX_SESSIONS) break;
            sessions.delete(oldId);
            void old.server.close().catch(() => undefined);
          }
        },
        maxRequestBodySize: maxBody,
      });
      const server = createMcpToolServer(host);
      const session: Session = { transport, server };
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body.value);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      const known = sessionId ? sessions.get(sessionId) : undefined;
      if (!known) return rpcError(res, sessionId ? 404 : 400, sessionId ? 'Session not found.' : 'Missing Mcp-Session-Id header.');
      return known.transport.handleRequest(req, res);
    }
    res.setHeader('Allow', 'GET, POST, DELETE');
    return reply(res, 405, 'Method not allowed.');
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    port,
    tokenPath,
    async close() {
      for (const s of [...sessions.values()]) await s.server.close().catch(() => undefined);
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `127.0.0.1:<port>`, `localhost:<port>` or `[::1]:<port>`: a rebinding page's name never matches. */
function loopbackHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(host.trim().toLowerCase());
  return !!m && LOOPBACK_NAMES.has(m[1]!) && Number(m[2]) === port;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant time: the digests are always the same length, whatever was sent. */
function authorised(authorization: string | undefined, expected: Buffer): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return timingSafeEqual(digest(m?.[1] ?? ''), expected) && !!m;
}

type Body = { ok: true; value: unknown } | { ok: false; status: number; message: string };

async function readJson(req: IncomingMessage, max: number): Promise<Body> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) return { ok: false, status: 413, message: `Request body over ${max} bytes.` };
  const chunks: Buffer[] = [];
  const complete = await new Promise<boolean>((resolve, reject) => {
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      // Stop reading; the 413 is sent and the connection closed after it.
      req.pause();
      req.removeAllListeners('data');
      resolve(false);
    });
    req.once('end', () => resolve(true));
    req.once('error', reject);
  });
  if (!complete) return { ok: false, status: 413, message: `Request body over ${max} bytes.` };
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'The body is not valid JSON.' };
  }
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    // An unread body (too large, refused before reading) is not drained: the connection ends here.
    ...(status === 413 || status === 401 || status === 403 ? { Connection: 'close' } : {}),
  });
  res.end(`${message}\n`);
}

function rpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
