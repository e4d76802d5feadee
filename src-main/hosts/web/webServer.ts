import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Emit } from '../../../src-shared/bridge/contract.js';
import { WS_PATH, WsClientFrame, type WsServerFrame } from '../../../src-shared/bridge/wsProtocol.js';
import type { Services } from '../../composition/services.js';
import { contentSecurityPolicy } from '../contentSecurityPolicy.js';

const STATIC_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface WebHost {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The web host's transport: the built renderer and the data routes over HTTP, the bridge
 * over a WebSocket. Bound to loopback only; every request and the socket need the random
 * token of the printed URL, and the socket also an Origin of this server, so another web
 * page in the same browser cannot drive the app.
 */
export async function startWebServer(opts: {
  services: (base: { dataBase: string; dataQuery: string }) => Promise<Services>;
  rendererDir: string;
  port: number;
}): Promise<WebHost> {
  const token = randomBytes(24).toString('hex');
  let services: Services | null = null;
  const server = createServer((req, res) => {
    void handleHttp(req, res).catch((err: unknown) => send(res, 500, 'text/plain', String(err)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  services = await opts.services({ dataBase: `http://127.0.0.1:${port}/`, dataQuery: `?token=${token}` });

  function hasToken(url: URL): boolean {
    const given = Buffer.from(url.searchParams.get('token') ?? '');
    const expected = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'Method not allowed');
    const path = url.pathname;
    if (path === '/' || path === '/index.html') {
      if (!hasToken(url)) return send(res, 403, 'text/plain', 'Open the URL printed by `npm run web` (it carries the access token).');
      const html = await readFile(join(opts.rendererDir, 'index.html'));
      res.setHeader('Content-Security-Policy', contentSecurityPolicy(`ws://127.0.0.1:${port} ws://localhost:${port}`));
      return send(res, 200, STATIC_TYPES['.html']!, html);
    }
    // The bundle itself holds no secrets; data does, so data routes need the token.
    const staticMatch = /^\/(app\.js|app\.css|app\.js\.map|app\.css\.map)$/.exec(path);
    if (staticMatch) {
      const body = await readFile(join(opts.rendererDir, staticMatch[1]!));
      return send(res, 200, STATIC_TYPES[extname(path)] ?? 'application/octet-stream', body);
    }
    if (/^\/(data|tiles|assets)\//.test(path)) {
      if (!hasToken(url)) return send(res, 403, 'text/plain', 'Missing or wrong token');
      const answer = await services!.serveData(decodeURIComponent(path.slice(1)));
      return send(res, answer.status, answer.contentType, answer.body);
    }
    return send(res, 404, 'text/plain', 'Not found');
  }

  const wss = new WebSocketServer({
    server,
    path: WS_PATH,
    maxPayload: 1 << 20,
    verifyClient: ({ origin, req }: { origin: string; req: IncomingMessage }) => {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      return origins.has(origin) && hasToken(url);
    },
  });
  wss.on('connection', (socket) => attachSocket(socket, services!));

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      // Browsers keep idle keep-alive connections open; close() alone would wait for them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await services?.close();
    },
  };
}

function attachSocket(socket: WebSocket, services: Services): void {
  const write = (frame: WsServerFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const emit: Emit = (name, payload) => write({ type: 'event', name, payload });
  const disconnect = services.connect(emit);
  socket.on('close', disconnect);
  socket.on('message', (data) => {
    let frame: WsClientFrame;
    try {
      frame = WsClientFrame.parse(JSON.parse(String(data)));
    } catch {
      socket.close(1003, 'Malformed frame');
      return;
    }
    services.invoke(frame.method, frame.params).then(
      (result) => write({ type: 'response', id: frame.id, ok: true, result }),
      (err: unknown) => write({ type: 'response', id: frame.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

function send(res: ServerResponse, status: number, type: string, body: string | Uint8Array): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
