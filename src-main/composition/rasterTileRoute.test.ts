import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { RasterStyle } from '../../src-shared/style/styleModel.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { createDataRoutes, EMPTY_TILE } from './dataRoutes.js';
import type { DataResponse } from './services.js';
import { TileCache } from './tileCache.js';

const dir = mkdtempSync(join(tmpdir(), 'mapwright-tile-route-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const source = join(dir, 'dem.tif');
writeFileSync(source, 'not really a GeoTIFF: the worker is a stub');

/** The raster layer the routes serve, its style changeable by the test. */
const layer = {
  id: 'R1',
  name: 'dem',
  source,
  sublayer: null,
  kind: 'raster',
  style: { type: 'grey', band: 1, min: null, max: null } as RasterStyle,
} as unknown as Layer & { style: RasterStyle };

const store = {
  layers: {
    get: (id: string) =>
      id === layer.id ? layer : id === 'NET' ? { ...layer, id: 'NET', source: 'https://example.com/cog.tif' } : undefined,
  },
} as unknown as ProjectStore;
const egress = { openFor: () => () => {} };

/** A worker that renders a distinct PNG-ish body per request and counts them. */
function stubWorker(answer: (n: number) => Uint8Array | null = (n) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, n])) {
  const calls = { n: 0 };
  const worker = {
    call: async () => {
      calls.n++;
      return answer(calls.n);
    },
  } as unknown as GisWorkerClient;
  return { worker, calls };
}

const header = (r: DataResponse, name: string) => r.headers?.[name];

describe('raster tile route', () => {
  it('renders once, then serves from the tile cache; revalidation is a 304 without rendering', async () => {
    const { worker, calls } = stubWorker();
    const serve = createDataRoutes(store, worker, dir, egress, new TileCache());
    const first = await serve('tiles/R1/s-abc/10/530/350.png');
    assert.equal(first.status, 200);
    assert.equal(first.contentType, 'image/png');
    assert.equal(calls.n, 1);
    const etag = header(first, 'ETag');
    assert.match(etag ?? '', /^W\/".+"$/);
    assert.equal(header(first, 'Cache-Control'), 'private, no-cache');

    const second = await serve('tiles/R1/s-abc/10/530/350.png');
    assert.deepEqual(second.body, first.body);
    assert.equal(calls.n, 1, 'from the cache');

    const revalidated = await serve('tiles/R1/s-abc/10/530/350.png', { ifNoneMatch: etag! });
    assert.equal(revalidated.status, 304);
    assert.equal(calls.n, 1);

    // Another tile of the same layer is rendered, with the same validator (same source and style).
    const other = await serve('tiles/R1/s-abc/10/531/350.png');
    assert.equal(calls.n, 2);
    assert.equal(header(other, 'ETag'), etag);
  });

  it('a restyled layer or a source rewritten in place is rendered again, with a new ETag', async () => {
    const { worker, calls } = stubWorker();
    const serve = createDataRoutes(store, worker, dir, egress, new TileCache());
    const a = await serve('tiles/R1/s-abc/5/16/10.png');
    layer.style = { type: 'grey', band: 1, min: 0, max: 500 };
    const b = await serve('tiles/R1/s-def/5/16/10.png');
    assert.equal(calls.n, 2);
    assert.notEqual(header(a, 'ETag'), header(b, 'ETag'));
    // The old validator no longer matches: a 200 with the new pixels.
    assert.equal((await serve('tiles/R1/s-def/5/16/10.png', { ifNoneMatch: header(a, 'ETag')! })).status, 200);
    assert.equal(calls.n, 2, 'served from the cache under the new style');

    utimesSync(source, new Date(), new Date(Date.now() + 60_000));
    const c = await serve('tiles/R1/s-def/5/16/10.png');
    assert.equal(calls.n, 3, 'a new mtime is a new cache key');
    assert.notEqual(header(c, 'ETag'), header(b, 'ETag'));
  });

  it('an empty tile (outside the raster) is cached too, and answered with the transparent PNG', async () => {
    const { worker, calls } = stubWorker(() => null);
    const serve = createDataRoutes(store, worker, dir, egress, new TileCache());
    assert.deepEqual((await serve('tiles/R1/0/0/0.png')).body, EMPTY_TILE);
    assert.deepEqual((await serve('tiles/R1/0/0/0.png')).body, EMPTY_TILE);
    assert.equal(calls.n, 1);
  });

  it('the disk tier serves tiles after a restart', async () => {
    const tiles = join(dir, 'tiles');
    const first = stubWorker();
    const cacheA = new TileCache({ dir: tiles });
    const a = await createDataRoutes(store, first.worker, dir, egress, cacheA)('tiles/R1/s-x/7/66/43.png');
    await cacheA.settled();
    const second = stubWorker();
    const b = await createDataRoutes(store, second.worker, dir, egress, new TileCache({ dir: tiles }))('tiles/R1/s-x/7/66/43.png');
    assert.equal(second.calls.n, 0);
    assert.deepEqual(Buffer.from(b.body as Uint8Array), Buffer.from(a.body as Uint8Array));
  });

  it('a network layer is neither cached nor validated', async () => {
    const { worker, calls } = stubWorker();
    const serve = createDataRoutes(store, worker, dir, egress, new TileCache());
    const a = await serve('tiles/NET/3/4/2.png');
    await serve('tiles/NET/3/4/2.png');
    assert.equal(calls.n, 2);
    assert.equal(header(a, 'ETag'), undefined);
    assert.equal(header(a, 'Cache-Control'), 'no-store');
  });

  it('without a tile cache every tile is rendered (still validated)', async () => {
    const { worker, calls } = stubWorker();
    const serve = createDataRoutes(store, worker, dir, egress);
    const a = await serve('tiles/R1/2/1/1.png');
    await serve('tiles/R1/2/1/1.png');
    assert.equal(calls.n, 2);
    assert.equal((await serve('tiles/R1/2/1/1.png', { ifNoneMatch: header(a, 'ETag')! })).status, 304);
    assert.equal(calls.n, 2);
  });
});
