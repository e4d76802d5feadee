import { readFileSync } from 'node:fs';
import { startRecordingServer, type RecordingServer } from '../../net/testing/recordingServer.js';

/**
 * For tests of web.fetch and web.download: a loopback site with a page, JSON, GIS files, redirects
 * to private addresses, an oversized body, a body that never ends, and an error.
 */

export const PAGE_HTML = `<!doctype html>
<html><head><title>Flood zones of Riverton</title><style>body { color: red }</style>
<script>window.secret = "do not read scripts";</script></head>
<body>
<nav><a href="/menu">Menu</a></nav>
<h1>Flood zones</h1>
<p>The <a href="/data/zones.geojson">zones layer</a> was updated in <b>2026</b>.</p>
<p>See also <a href="https://example.org/about">the agency</a> and <a href="javascript:alert(1)">this</a>.</p>
<ul><li>Zone A: 1% annual chance</li><li>Zone X: minimal</li></ul>
<img src="/logo.png" alt="logo">
</body></html>`;

export const SAMPLE_JSON = {
  name: 'riverton',
  zones: [
    { id: 'A', chance: 0.01 },
    { id: 'X', chance: null },
  ],
};

export const SAMPLE_GEOJSON = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { zone: 'A', depth_m: 1.5 },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [10, 50],
            [10.1, 50],
            [10.1, 50.1],
            [10, 50.1],
            [10, 50],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { zone: 'X', depth_m: 0 },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [10.2, 50],
            [10.3, 50],
            [10.3, 50.1],
            [10.2, 50.1],
            [10.2, 50],
          ],
        ],
      },
    },
  ],
};

export interface WebSite extends RecordingServer {
  /** Requests the slow route received (it never answers). */
  slowHits: number;
}

export async function startWebSite(files: { gpkg?: string } = {}): Promise<WebSite> {
  const site = { slowHits: 0 } as WebSite;
  const server = await startRecordingServer((req, res) => {
    const path = req.url.split('?')[0];
    switch (path) {
      case '/page.html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE_HTML);
        return;
      case '/long.html':
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><body>${'<p>Lorem ipsum dolor sit amet.</p>'.repeat(2000)}</body></html>`);
        return;
      case '/data.json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(SAMPLE_JSON));
        return;
      case '/big.json':
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ i, v: `row ${i}` })) }));
        return;
      case '/data/zones.geojson':
        res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify(SAMPLE_GEOJSON));
        return;
      case '/download': // no extension, a generic type: the first bytes tell
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(JSON.stringify(SAMPLE_GEOJSON));
        return;
      case '/world.gpkg':
        if (!files.gpkg) break;
        res.writeHead(200, { 'content-type': 'application/geopackage+sqlite3' }).end(readFileSync(files.gpkg));
        return;
      case '/blob.bin':
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3, 4, 5]));
        return;
      case '/to-metadata':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      case '/to-private':
        res.writeHead(301, { location: 'http://10.0.0.7/admin' }).end();
        return;
      case '/redirect': // an open redirect, as many sites have
        res.writeHead(302, { location: new URLSearchParams(req.url.split('?')[1] ?? '').get('to') ?? '/' }).end();
        return;
      case '/to-page':
        res.writeHead(302, { location: '/page.html' }).end();
        return;
      case '/huge.txt': {
        // No Content-Length: the cap must hold while reading.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 64; i++) res.write(chunk);
        res.end();
        return;
      }
      case '/huge-declared.geojson':
        res.writeHead(200, { 'content-type': 'application/geo+json', 'content-length': String(200 * 1024 * 1024) });
        res.write('{"type":"FeatureCollection","features":[');
        return; // the declared length alone is refused
      case '/slow.html':
        site.slowHits++;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body><p>starting…');
        return; // never ends
      case '/missing.geojson':
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not Found</h1></body></html>');
        return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
  return Object.assign(site, server);
}
