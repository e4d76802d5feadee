import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { VectorTile } from '@mapbox/vector-tile';
import Protobuf from 'pbf';
import { VECTOR_TILE_LAYER } from '../../src-shared/style/vectorTiles.js';
import { fixtures, haveFixtures, startApp } from './testApp.js';

/**
 * The display surfaces main adds for real-size data, end to end through the real worker: the
 * vector tile route and the attribute table's bridge methods. The renderer names layers by id
 * only; whatever else it sends is refused.
 */
describe('vector tile route and attribute table methods', { skip: !haveFixtures }, () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  let nc: string;
  let elev: string;
  before(async () => {
    app = await startApp(null);
    for (const file of ['nc.gpkg', 'elev.tif']) {
      const r = await app.services.runForPerson('layers.load', { path: join(fixtures, file) });
      assert.ok(r.ok, JSON.stringify(r));
    }
    const { layers } = (await app.services.invoke('project/get', {})) as { layers: { id: string; kind: string }[] };
    nc = layers.find((l) => l.kind === 'vector')!.id;
    elev = layers.find((l) => l.kind === 'raster')!.id;
  });
  after(() => app?.services.close());

  it('serves a vector tile of a project layer with its thinning stats', async () => {
    const res = await app.services.serveData(`tiles/${nc}/v-abc/6/17/25.pbf`);
    assert.equal(res.status, 200);
    assert.equal(res.contentType, 'application/x-protobuf');
    assert.match(res.headers?.['X-Mapwright-Tile'] ?? '', /^kept=\d+; dropped=0; bytes=\d+$/);
    const layer = new VectorTile(new Protobuf(res.body as Uint8Array)).layers[VECTOR_TILE_LAYER]!;
    assert.ok(layer.length > 10);
  });

  it('keeps a made tile: the second read comes from the cache, a current browser copy gets a 304', async () => {
    const first = await app.services.serveData(`tiles/${nc}/v-abc/6/17/26.pbf`);
    const again = await app.services.serveData(`tiles/${nc}/v-def/6/17/26.pbf`);
    assert.match(first.headers?.['X-Mapwright-Tile'] ?? '', /^kept=/);
    assert.equal(again.headers?.['X-Mapwright-Tile'], 'cached');
    assert.deepEqual(Buffer.from(again.body as Uint8Array), Buffer.from(first.body as Uint8Array));
    const etag = first.headers!.ETag!;
    assert.equal((await app.services.serveData(`tiles/${nc}/v-abc/6/17/26.pbf`, { ifNoneMatch: etag })).status, 304);
  });

  it('names only layers of the project, of the right kind', async () => {
    for (const path of [
      `tiles/nope/v-abc/6/17/25.pbf`,
      `tiles/${elev}/v-abc/6/17/25.pbf`,
      `tiles/${nc}/v-abc/6/17/25.pbf/../../x`,
      'tiles/../../etc/passwd',
    ]) {
      assert.equal((await app.services.serveData(path)).status, 404, path);
    }
  });

  it('pages rows, filters with the allow-list, and refuses what is not a table', async () => {
    const page = (await app.services.invoke('layers/rows', {
      layerId: nc,
      offset: 10,
      limit: 5,
      orderBy: null,
      where: 'BIR74 > 1000',
    })) as { total: number; rows: { fid: number }[] };
    assert.ok(page.total > 0 && page.total < 100);
    assert.equal(page.rows.length, 5);
    await assert.rejects(
      app.services.invoke('layers/rows', { layerId: nc, offset: 0, limit: 5, where: "load_extension('/tmp/evil')" }),
      /not allowed/,
    );
    await assert.rejects(app.services.invoke('layers/rows', { layerId: elev, offset: 0, limit: 5 }), /No vector layer or table/);
    await assert.rejects(app.services.invoke('layers/rows', { layerId: nc, offset: 0, limit: 5000 }), /Invalid parameters/);
    await assert.rejects(
      app.services.invoke('layers/rows', { layerId: nc, offset: 0, limit: 5, source: '/etc/passwd' }),
      /Invalid parameters|Unrecognized/,
    );
  });

  it('features by id and ids by filter', async () => {
    const f = (await app.services.invoke('layers/features', { layerId: nc, fids: [1, 5] })) as {
      features: { id: number }[];
      bbox: number[];
    };
    assert.deepEqual(
      f.features.map((x) => x.id),
      [1, 5],
    );
    assert.equal(f.bbox.length, 4);
    const ids = (await app.services.invoke('layers/select-ids', { layerId: nc, where: 'AREA > 0.2' })) as {
      fids: number[];
      total: number;
      capped: boolean;
    };
    assert.equal(ids.fids.length, ids.total);
    assert.equal(ids.capped, false);
  });
});
