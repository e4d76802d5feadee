import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeRgbaPng } from '../gis-worker/encodePng.js';

/**
 * One loopback server for the network map source tests (and e2e/specs/webSources.spec.ts):
 * - `/tiles/{z}/{x}/{y}.png`: an XYZ tile server answering one solid colour for every tile;
 * - `/wms?…`: a WMS answering GetMap with a solid image of the asked size (its query kept);
 * - `/files/NAME`: the given files with HTTP range requests (COG, FlatGeobuf);
 * - `/redirect/…`: a redirect to the cloud metadata address, which must never be followed.
 */
export interface SourceTestServer {
  origin: string;
  /** `METHOD /path?query` of every request, in order. */
  hits: string[];
  /** Query parameters of every WMS request. */
  wmsRequests: URLSearchParams[];
  close(): Promise<void>;
}

export const TILE_COLOUR = [200, 40, 40] as const;
export const WMS_COLOUR = [40, 40, 200] as const;

async function solidPng(width: number, height: number, [r, g, b]: readonly number[]): Promise<Buffer> {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) {
    rgba[i] = r!;
    rgba[i + 1] = g!;
    rgba[i + 2] = b!;
    rgba[i + 3] = 255;
  }
  return encodeRgbaPng(rgba, width, height);
}

export async function startSourceTestServer(files: Record<string, string> = {}): Promise<SourceTestServer> {
  const hits: string[] = [];
  const wmsRequests: URLSearchParams[] = [];
  const tile = await solidPng(256, 256, TILE_COLOUR);
  const bodies = new Map(Object.entries(files).map(([name, path]) => [name, readFileSync(path)]));
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://x');
    if (/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(url.pathname))
      return void res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': tile.length }).end(tile);
    if (url.pathname === '/wms') {
      const q = new URLSearchParams([...url.searchParams].map(([k, v]) => [k.toUpperCase(), v]));
      wmsRequests.push(q);
      if (q.get('REQUEST') !== 'GetMap') return void res.writeHead(400).end('only GetMap');
      const w = Math.min(4096, Number(q.get('WIDTH') ?? 256));
      const h = Math.min(4096, Number(q.get('HEIGHT') ?? 256));
      void solidPng(w, h, WMS_COLOUR).then((png) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(png));
      return;
    }
    if (url.pathname.startsWith('/redirect/'))
      return void res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/x.tif' }).end();
    const file = /^\/files\/(.+)$/.exec(url.pathname);
    const body = file ? bodies.get(file[1]!) : undefined;
    if (!body) return void res.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Math.min(Number(range[1]), body.length) : 0;
    const end = range?.[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    const part = body.subarray(start, end + 1);
    res.writeHead(range ? 206 : 200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': part.length,
      'Accept-Ranges': 'bytes',
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${body.length}` } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : part);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    wmsRequests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
