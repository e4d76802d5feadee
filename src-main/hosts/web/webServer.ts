import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Emit } from '../../../src-shared/bridge/contract.js';
import { WS_PATH, WsClientFrame, type WsServerFrame } from '../../../src-shared/bridge/wsProtocol.js';
import { etagMatches } from '../../composition/httpCaching.js';
import type { Services } from '../../composition/services.js';
import { contentSecurityPolicy } from '../contentSecurityPolicy.js';
import { handleImport, IMPORT_PATH } from './importRoute.js';
import { BodyCompressor, isCompressible, pickEncoding, StaticFiles, type Encoding } from './compression.js';

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
  // The page's files compressed once per build, data bodies per request (large ones remembered).
  const staticFiles = new StaticFiles((file) => STATIC_TYPES[extname(file)] ?? 'application/octet-stream');
  const bodies = new BodyCompressor();
  const server = createServer((req, res) => {
    void handleHttp(req, res).catch((err: unknown) => {
      // The page is seen by whoever opens it: it gets a generic text, stderr gets the detail.
      logError(`HTTP ${req.method ?? '?'} failed`, err);
      if (!res.headersSent) send(res, 500, 'text/plain', 'Internal error');
      else res.destroy();
    });
  });
  // A request Node cannot parse (garbage bytes, oversized headers) ends that connection only.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code !== 'ECONNRESET') logError('bad HTTP request', err);
    if (socket.writable) socket.write('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  services = await opts.services({ dataBase: `http://127.0.0.1:${port}/`, dataQuery: `?token=${token}` });
  staticFiles.warm(['app.js', 'app.css'].map((f) => join(opts.rendererDir, f)));

  function hasToken(url: URL): boolean {
    const given = Buffer.from(url.searchParams.get('token') ?? '');
    const expected = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = URL.canParse(req.url ?? '/', `http://127.0.0.1:${port}`) ? new URL(req.url ?? '/', `http://127.0.0.1:${port}`) : null;
    if (!url) return send(res, 400, 'text/plain', 'Bad request');
    // Files dropped on the map arrive as bytes (issue #15): the one route that takes a body.
    if (url.pathname === IMPORT_PATH && req.method === 'POST') {
      if (!hasToken(url)) return send(res, 403, 'text/plain', 'Missing or wrong token');
      const answer = await handleImport(req, url, origins, services!);
      // A refused upload may still be sending: answer, then close rather than read the rest.
      if (answer.status !== 200) res.setHeader('connection', 'close');
      return send(res, answer.status, 'application/json', answer.body);
    }
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
      const file = await staticFiles.get(join(opts.rendererDir, staticMatch[1]!));
      // Kept, but checked on each load: a rebuild is picked up at once.
      const headers = { etag: file.etag, 'cache-control': 'no-cache', vary: 'Accept-Encoding' };
      if (etagMatches(header(req, 'if-none-match'), file.etag)) return notModified(res, headers);
      const encoding = pickEncoding(req.headers['accept-encoding']);
      const encoded = await file.encoded(encoding);
      return send(
        res,
        200,
        STATIC_TYPES[extname(path)] ?? 'application/octet-stream',
        encoded ?? file.body,
        encodingHeaders(headers, encoded ? encoding : null),
      );
    }
    if (/^\/(data|tiles|assets)\//.test(path)) {
      if (!hasToken(url)) return send(res, 403, 'text/plain', 'Missing or wrong token');
      let dataPath: string;
      try {
        dataPath = decodeURIComponent(path.slice(1));
      } catch {
        return send(res, 400, 'text/plain', 'Bad request'); // malformed %-escape
      }
      const ifNoneMatch = header(req, 'if-none-match');
      const answer = await services!.serveData(dataPath, ifNoneMatch ? { ifNoneMatch } : {});
      const headers = lowerCaseKeys(answer.headers ?? {});
      // A route may answer 304 itself (before doing the work); any ETag it sends is honoured too.
      const etag = headers.etag;
      if (answer.status === 304 || (answer.status === 200 && etag && etagMatches(ifNoneMatch, etag))) return notModified(res, headers);
      if (isCompressible(answer.contentType)) headers.vary = 'Accept-Encoding';
      const encoding = answer.status === 200 ? pickEncoding(req.headers['accept-encoding']) : null;
      const encoded = await bodies.encode(answer.body, answer.contentType, encoding);
      return send(res, answer.status, answer.contentType, encoded ?? answer.body, encodingHeaders(headers, encoded ? encoding : null));
    }
    return send(res, 404, 'text/plain', 'Not found');
  }

  const wss = new WebSocketServer({
    server,
    path: WS_PATH,
    // Bounds the memory one frame can take. The largest request is a chat message or a tool's
    // arguments, far below 1 MiB; ws refuses a longer frame from its header (close 1009).
    // permessage-deflate stays off (ws's default), so no compressed bomb gets past this.
    maxPayload: 1 << 20,
    verifyClient: ({ origin, req }: { origin: string; req: IncomingMessage }) => {
      // A throw here would escape ws's 'upgrade' listener and end the process.
      if (!URL.canParse(req.url ?? '/', `http://127.0.0.1:${port}`)) return false;
      return origins.has(origin) && hasToken(new URL(req.url ?? '/', `http://127.0.0.1:${port}`));
    },
  });
  // ws re-emits the HTTP server's errors here; an 'error' without a listener would throw.
  wss.on('error', (err) => logError('bridge server error', err));
  wss.on('connection', (socket) => {
    try {
      attachSocket(socket, services!);
    } catch (err) {
      logError('bridge connection failed', err);
      socket.terminate();
    }
  });

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

/**
 * One renderer connection. Nothing a peer sends may end the process: ws reports protocol
 * violations (bad UTF-8, opcode, RSV bits, unmasked or oversized frames, bad close codes) as
 * an 'error' on the socket and closes it itself, and an 'error' with no listener would throw.
 * Frames that are not a request envelope close the socket with 1003; a well-formed request
 * for an unknown method or with bad params gets an error response from `Services.invoke`.
 */
function attachSocket(socket: WebSocket, services: Services): void {
  socket.on('error', (err) => logError('bridge socket closed on error', err));
  const write = (frame: WsServerFrame): boolean => {
    if (socket.readyState !== socket.OPEN) return true;
    let text: string;
    try {
      text = JSON.stringify(frame);
    } catch (err) {
      logError('bridge frame could not be serialised', err);
      return false;
    }
    socket.send(text);
    return true;
  };
  const emit: Emit = (name, payload) => void write({ type: 'event', name, payload });
  const disconnect = services.connect(emit);
  socket.on('close', () => {
    try {
      disconnect();
    } catch (err) {
      logError('bridge disconnect failed', err);
    }
  });
  socket.on('message', (data, isBinary) => {
    // A throw here would escape through ws's socket 'data' listener and end the process.
    try {
      onMessage(data, isBinary);
    } catch (err) {
      logError('bridge message failed', err);
      socket.close(1011, 'Internal error');
    }
  });

  function onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    const frame = isBinary ? null : parseFrame(data);
    if (!frame) {
      socket.close(1003, 'Malformed frame');
      return;
    }
    const { id } = frame;
    // Promise.resolve().then also turns a synchronous throw of invoke into a rejection.
    Promise.resolve()
      .then(() => services.invoke(frame.method, frame.params))
      .then(
        (result) => {
          if (!write({ type: 'response', id, ok: true, result })) write({ type: 'response', id, ok: false, error: 'Internal error' });
        },
        (err: unknown) => write({ type: 'response', id, ok: false, error: err instanceof Error ? err.message : String(err) }),
      )
      .catch((err: unknown) => logError('bridge response failed', err));
  }
}

function parseFrame(data: WebSocket.RawData): WsClientFrame | null {
  const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = WsClientFrame.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** One short stderr line: the error's code or first message line, without file paths or stack. */
function logError(what: string, err: unknown): void {
  let detail = 'unknown error';
  try {
    const code = (err as { code?: unknown } | null)?.code;
    const message = err instanceof Error ? err.message : String(err);
    const line = message.split('\n')[0] ?? '';
    detail = typeof code === 'string' && !line.startsWith(code) ? `${code}: ${line}` : line;
  } catch {
    // An object whose toString throws: keep 'unknown error'.
  }
  // A path starts a word: '/home/…', 'C:\…'; 'HTTP/1.1' or 'app/info' are left alone.
  const safe = detail.replace(/(?<![\w.])(?:[A-Za-z]:)?[\\/][^\s'"`]*/g, '<path>').slice(0, 200);
  process.stderr.write(`Mapwright web host: ${what}: ${safe}\n`);
}

/** `extra` (lower-case names) may carry etag, cache-control (else no-store), vary and content-encoding. */
function send(res: ServerResponse, status: number, type: string, body: string | Uint8Array, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'cache-control': 'no-store',
    ...extra,
    'content-type': type,
    // Also for HEAD, which sends no body; and it spares GET the chunked encoding.
    'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

function notModified(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(304, { 'cache-control': 'no-store', ...headers, 'x-content-type-options': 'nosniff' });
  res.end();
}

function encodingHeaders(headers: Record<string, string>, encoding: Encoding | null): Record<string, string> {
  return encoding ? { ...headers, 'content-encoding': encoding } : headers;
}

/** Header names are case-insensitive; one spelling, so a route's cache-control replaces the default. */
function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}
