import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { MethodHandlers } from '../../../src-shared/bridge/contract.js';
import { etagMatches, REVALIDATE, weakETag } from '../../composition/httpCaching.js';
import type { DataRequest, DataResponse, Services } from '../../composition/services.js';
import { pickEncoding } from './compression.js';
import { startWebServer, type WebHost } from './webServer.js';

/**
 * The web host's HTTP caching and compression: route headers are sent, If-None-Match gets a
 * 304 (without the route doing its work when it can tell), text and protobuf go out brotli-
 * or gzip-encoded when the client accepts it, PNG never does.
 */

const JS = `/* app */\n${'export const value = "mapwright";\n'.repeat(5000)}`;
const GEOJSON = JSON.stringify({
  type: 'FeatureCollection',
  features: Array.from({ length: 500 }, (_, i) => ({
    type: 'Feature',
    properties: { i },
    geometry: { type: 'Point', coordinates: [i, i] },
  })),
});
const PNG_BYTES = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(20_000)]);
const TILE_ETAG = weakETag('raster-tile', 'identity', 'style');

let renders = 0;
const seen: DataRequest[] = [];

function stubServices(): Services {
  return {
    handlers: {} as MethodHandlers,
    invoke: () => Promise.reject(new Error('not stubbed')),
    async serveData(path: string, request: DataRequest = {}): Promise<DataResponse> {
      seen.push(request);
      if (path === 'tiles/L1/s-abc/3/4/5.png') {
        const headers = { ETag: TILE_ETAG, 'Cache-Control': REVALIDATE };
        if (etagMatches(request.ifNoneMatch, TILE_ETAG)) return { status: 304, contentType: 'image/png', body: '', headers };
        renders++;
        return { status: 200, contentType: 'image/png', body: PNG_BYTES, headers };
      }
      // A route that sends an ETag but does not look at If-None-Match itself.
      if (path === 'data/layers/L2.geojson')
        return {
          status: 200,
          contentType: 'application/geo+json',
          body: GEOJSON,
          headers: { etag: 'W/"v1"', 'cache-control': 'private, no-cache' },
        };
      if (path === 'data/layers/small.geojson')
        return { status: 200, contentType: 'application/geo+json', body: '{"type":"FeatureCollection","features":[]}' };
      if (path === 'assets/glyphs/0-255.pbf') return { status: 200, contentType: 'application/x-protobuf', body: Buffer.from(JS) };
      return { status: 404, contentType: 'text/plain', body: 'Not found' };
    },
    runForPerson: async () => ({ ok: false, error: { code: 'not_allowed', message: 'not stubbed', retryable: false } }),
    connect: () => () => {},
    close: async () => {},
  };
}

let host: WebHost;
let rendererDir: string;
let token: string;

before(async () => {
  rendererDir = mkdtempSync(join(tmpdir(), 'mapwright-web-cache-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(rendererDir, 'app.js'), JS);
  writeFileSync(join(rendererDir, 'app.css'), 'body{margin:0}\n'.repeat(200));
  host = await startWebServer({ services: async () => stubServices(), rendererDir, port: 0 });
  token = new URL(host.url).searchParams.get('token')!;
});

after(async () => {
  await host.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire (not decoded). */
  raw: Buffer;
  /** Decoded per Content-Encoding. */
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`http://127.0.0.1:${host.port}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const enc = res.headers['content-encoding'];
        const body = raw.length === 0 ? raw : enc === 'br' ? brotliDecompressSync(raw) : enc === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const q = () => `?token=${token}`;

describe('web host: HTTP caching', () => {
  it('a tile carries its ETag and a revalidate-first Cache-Control; If-None-Match gets a 304 without rendering', async () => {
    const first = await get(`/tiles/L1/s-abc/3/4/5.png${q()}`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.etag, TILE_ETAG);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    assert.deepEqual(first.body, PNG_BYTES);
    const rendersBefore = renders;
    const again = await get(`/tiles/L1/s-abc/3/4/5.png${q()}`, { 'If-None-Match': TILE_ETAG });
    assert.equal(again.status, 304);
    assert.equal(again.raw.length, 0);
    assert.equal(again.headers.etag, TILE_ETAG);
    assert.equal(renders, rendersBefore, 'no rendering for a 304');
    assert.equal(seen.at(-1)?.ifNoneMatch, TILE_ETAG, 'the route was told');
    // A stale validator gets the body.
    const stale = await get(`/tiles/L1/s-abc/3/4/5.png${q()}`, { 'If-None-Match': 'W/"old"' });
    assert.equal(stale.status, 200);
  });

  it('a route ETag is honoured by the host even when the route ignores If-None-Match', async () => {
    const got = await get(`/data/layers/L2.geojson${q()}`, { 'If-None-Match': 'W/"zero", W/"v1"' });
    assert.equal(got.status, 304);
    assert.equal(got.headers['cache-control'], 'private, no-cache');
  });

  it('data without caching headers stays no-store; a 304 still needs the token', async () => {
    const got = await get(`/data/layers/small.geojson${q()}`);
    assert.equal(got.headers['cache-control'], 'no-store');
    assert.equal((await get('/tiles/L1/s-abc/3/4/5.png', { 'If-None-Match': TILE_ETAG })).status, 403);
  });

  it('the page files are revalidated by ETag', async () => {
    const first = await get('/app.js');
    assert.equal(first.status, 200);
    assert.equal(first.headers['cache-control'], 'no-cache');
    const etag = String(first.headers.etag);
    assert.match(etag, /^W\/".+"$/);
    const again = await get('/app.js', { 'If-None-Match': etag });
    assert.equal(again.status, 304);
    // A rebuild changes the ETag.
    writeFileSync(join(rendererDir, 'app.js'), `${JS}// rebuilt\n`);
    const rebuilt = await get('/app.js', { 'If-None-Match': etag });
    assert.equal(rebuilt.status, 200);
    assert.ok(rebuilt.body.toString().endsWith('// rebuilt\n'));
    writeFileSync(join(rendererDir, 'app.js'), JS);
  });
});

describe('web host: compression', () => {
  it('the page: brotli when accepted, else gzip, else as is', async () => {
    const br = await get('/app.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.body.toString(), JS);
    assert.ok(br.raw.length < JS.length / 10, `brotli ${br.raw.length} of ${JS.length}`);
    assert.equal(br.headers['content-length'], String(br.raw.length));
    assert.match(String(br.headers.vary), /Accept-Encoding/i);
    const gz = await get('/app.js', { 'Accept-Encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.body.toString(), JS);
    const plain = await get('/app.js');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString(), JS);
    const css = await get('/app.css', { 'Accept-Encoding': 'br' });
    assert.equal(css.headers['content-encoding'], 'br');
  });

  it('GeoJSON and protobuf data are compressed; PNG never is', async () => {
    const geo = await get(`/data/layers/L2.geojson${q()}`, { 'Accept-Encoding': 'br, gzip' });
    assert.equal(geo.headers['content-encoding'], 'br');
    assert.equal(geo.body.toString(), GEOJSON);
    assert.ok(geo.raw.length < GEOJSON.length / 5);
    const pbf = await get(`/assets/glyphs/0-255.pbf${q()}`, { 'Accept-Encoding': 'gzip' });
    assert.equal(pbf.headers['content-encoding'], 'gzip');
    assert.equal(pbf.body.toString(), JS);
    const png = await get(`/tiles/L1/s-abc/3/4/5.png${q()}`, { 'Accept-Encoding': 'br, gzip' });
    assert.equal(png.headers['content-encoding'], undefined);
    assert.deepEqual(png.raw, PNG_BYTES);
    const tiny = await get(`/data/layers/small.geojson${q()}`, { 'Accept-Encoding': 'br' });
    assert.equal(tiny.headers['content-encoding'], undefined, 'too small to be worth it');
  });

  it('HEAD gets the headers of GET and no body', async () => {
    const head = await get('/app.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], 'br');
    assert.equal(head.raw.length, 0);
    const got = await get('/app.js', { 'Accept-Encoding': 'br' });
    assert.equal(head.headers['content-length'], got.headers['content-length']);
  });

  it('Accept-Encoding is read with its q-values', () => {
    assert.equal(pickEncoding('gzip, deflate, br'), 'br');
    assert.equal(pickEncoding('br;q=0, gzip'), 'gzip');
    assert.equal(pickEncoding('gzip;q=1.0, br;q=0.5'), 'gzip');
    assert.equal(pickEncoding('identity'), null);
    assert.equal(pickEncoding('*'), 'br');
    assert.equal(pickEncoding('*;q=0'), null);
    assert.equal(pickEncoding(undefined), null);
  });
});
