import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import Protobuf from 'pbf';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import { TILE_FEATURE_CAP, VECTOR_TILE_LAYER } from '../../src-shared/style/vectorTiles.js';
import { fixtures, startApp } from '../composition/testApp.js';
import { pgClusterSuite, saveTestConnection } from './testing/pgTestSuite.js';
import { tilePointCounts } from './testing/tilePointCounts.js';

/**
 * PostGIS tables as project layers (issue 16), through the whole main process against a real
 * server: loading names a connection by id, the GIS worker reads through GDAL's PostgreSQL
 * driver with what main told it, large tables are drawn from tiles the server makes, and the
 * agent's first use of a connection asks (then the project remembers its server).
 */
const pg = pgClusterSuite({ ncGpkg: join(fixtures, 'nc.gpkg') });
const need = (t: TestContext) => pg.need(t);
let app: Awaited<ReturnType<typeof startApp>>;
let conn: PgConnectionListed;

before(async () => {
  const c = await pg.ready();
  if (!c) return;
  app = await startApp(null);
  conn = await saveTestConnection(app.services, c);
});
after(async () => {
  await app?.services.close();
});
const layers = async () => ((await app.services.invoke('project/get', {})) as { layers: Layer[] }).layers;
const tileOf = (body: unknown) => new VectorTile(new Protobuf(body as Uint8Array)).layers[VECTOR_TILE_LAYER];

describe('PostGIS tables as layers', () => {
  it('asks the first use of a connection from a call, then the project remembers the server', async (t) => {
    const c = need(t);
    if (!c) return;
    const source = `postgis://${conn.id}|layername=public.nc_counties`;
    const first = app.services.invoke('entries/trigger', { entry: 'layers.load', params: { path: source } });
    const asked: ApprovalRequest = await app.approval();
    assert.deepEqual(asked.network, [`postgres://127.0.0.1:${c.port}/${c.database}`]);
    assert.equal(asked.networkKept, 'project');
    await app.services.invoke('tools/decide', { approvalId: asked.id, decision: 'approve' });
    assert.ok(((await first) as { ok: boolean }).ok);
    // The same server again: the dialog (a typed path from the interface) no longer asks about the network.
    const second = app.services.invoke('entries/trigger', { entry: 'layers.load', params: { path: source } });
    const again: ApprovalRequest = await app.approval();
    assert.equal(again.network, undefined);
    await app.services.invoke('tools/decide', { approvalId: again.id, decision: 'approve' });
    assert.ok(((await second) as { ok: boolean }).ok);
    for (const l of await layers()) await app.services.invoke('entries/trigger', { entry: 'layers.remove', params: { layer: l.id } });
  });

  it('loads a table from the panel: GDAL reads it through the saved connection, the GeoJSON route serves all of it', async (t) => {
    if (!need(t)) return;
    const r = await app.services.invoke('postgis/load', { id: conn.id, schema: 'public', table: 'nc_counties' });
    assert.ok((r as { ok: boolean }).ok, JSON.stringify(r));
    const nc = (await layers()).find((l) => l.sublayer === 'public.nc_counties')!;
    assert.equal(nc.source, `postgis://${conn.id}`);
    assert.equal(nc.info.featureCount, 100);
    assert.equal(nc.info.crs?.epsg, 4267);
    const geo = await app.services.serveData(`data/layers/${nc.id}.geojson`);
    assert.equal(geo.status, 200);
    const features = (JSON.parse(String(geo.body)) as { features: { properties: { name: string } }[] }).features;
    assert.equal(features.length, 100);
    assert.ok(features.some((f) => f.properties.name === 'Ashe'));
  });

  it('draws a 1,000,000-row table from tiles the server makes: thinned zoomed out, every point zoomed in', async (t) => {
    const c = need(t);
    if (!c) return;
    const r = await app.services.invoke('postgis/load', { id: conn.id, schema: 'public', table: 'points_1m' });
    assert.ok((r as { ok: boolean }).ok, JSON.stringify(r));
    assert.match(JSON.stringify(r), /made by the PostGIS server/);
    const points = (await layers()).find((l) => l.sublayer === 'public.points_1m')!;
    assert.equal(points.info.featureCount, 1_000_000);

    const wide = await app.services.serveData(`tiles/${points.id}/v-x/5/8/12.pbf`);
    assert.equal(wide.status, 200);
    assert.match(wide.headers?.['X-Mapwright-Tile'] ?? '', /^server; method=(sample|grid); kept=\d+; dropped=\d+; bytes=\d+$/);
    const wideLayer = tileOf(wide.body)!;
    assert.ok(wideLayer.length > 1000 && wideLayer.length <= TILE_FEATURE_CAP, `${wideLayer.length} features`);

    // Zoomed in, a tile holds every point under it: the same count as the server's own query.
    const [z, x, y] = [13, 2262, 3221];
    const close = await app.services.serveData(`tiles/${points.id}/v-x/${z}/${x}/${y}.pbf`);
    assert.match(close.headers?.['X-Mapwright-Tile'] ?? '', /^server; method=all;/);
    const admin = await c.admin();
    try {
      // The tile's buffer (64 of 4096 units each side) is drawn too, as MapLibre needs it.
      const under = await tilePointCounts(admin, 'true', [z, x, y]);
      const closeLayer = tileOf(close.body);
      const drawn = closeLayer?.length ?? 0;
      assert.ok(under.fewest > 0);
      assert.ok(drawn >= under.fewest && drawn <= under.most, `${drawn} drawn, ${under.fewest}–${under.most} under the tile`);
      // Feature ids are the table's key, the same ids GDAL reads as FIDs.
      assert.ok(typeof closeLayer!.feature(0).id === 'number');
    } finally {
      await admin.end();
    }
  });

  it('refuses a connection that is not saved, connection strings and hosts from a string', async (t) => {
    if (!need(t)) return;
    for (const [path, code] of [
      ['postgis://nope|layername=public.nc_counties', 'invalid_params'],
      ['postgis://../x|layername=public.nc_counties', 'invalid_params'],
      [`PG:host=127.0.0.1 dbname=mapwright_test`, 'not_allowed'],
      ['postgresql://127.0.0.1/mapwright_test', 'not_allowed'],
    ] as const) {
      const r = (await app.services.invoke('entries/trigger', { entry: 'layers.load', params: { path } })) as {
        ok: boolean;
        error?: { code: string; message: string };
      };
      assert.equal(r.ok, false, path);
      assert.equal(r.error?.code, code, `${path}: ${r.error?.message}`);
    }
  });
});
