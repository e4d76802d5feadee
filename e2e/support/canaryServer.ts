import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CanaryServer {
  origin: string;
  port: number;
  /** `METHOD /path` of every request, in order. */
  hits: string[];
  /** TCP connections accepted, HTTP or not (a database client would show only here). */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A loopback server that counts everything that reaches it, the target of hostile calls in
 * the security tests. It serves `body` at any `*.geojson` path, with byte ranges (GDAL's
 * `/vsicurl/` reads by ranges), so an approved call can really read from it.
 */
export async function startCanaryServer(body: Buffer): Promise<CanaryServer> {
  const hits: string[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (!/\.geojson(\?|$)/.test(req.url ?? '')) return void res.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Math.min(Number(range[1]), body.length) : 0;
    const end = range?.[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    const part = body.subarray(start, end + 1);
    res.writeHead(range ? 206 : 200, {
      'Content-Type': 'application/geo+json',
      'Content-Length': part.length,
      'Accept-Ranges': 'bytes',
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${body.length}` } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : part);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
