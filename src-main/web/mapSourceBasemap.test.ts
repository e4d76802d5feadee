import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp } from '../composition/testApp.js';
import { decodePng } from '../gis-worker/testSupport.js';
import { createOnlineBasemapRoute } from './mapSourceBasemap.js';
import { startSourceTestServer, TILE_COLOUR, type SourceTestServer } from './sourceTestServers.js';

describe('online basemap: off by default, fetched by main from one template while on', () => {
  let server: SourceTestServer;
  before(async () => {
    server = await startSourceTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('answers 404 and fetches nothing while off; tiles while on; refuses tiles outside the grid', async () => {
    let on = false;
    const route = createOnlineBasemapRoute({
      enabled: () => on,
      template: `${server.origin}/tiles/{z}/{x}/{y}.png`,
      allowedOrigins: new Set([server.origin]),
    });
    assert.equal((await route(1, 0, 0)).status, 404);
    assert.equal(server.hits.length, 0);
    on = true;
    const tile = await route(1, 1, 0);
    assert.equal(tile.status, 200);
    assert.equal(tile.contentType, 'image/png');
    assert.deepEqual(server.hits, ['GET /tiles/1/1/0.png']);
    await route(1, 1, 0);
    assert.equal(server.hits.length, 1, 'kept in memory');
    for (const [z, x, y] of [
      [1, 2, 0],
      [-1, 0, 0],
      [20, 0, 0],
      [2, 0, -1],
    ] as const)
      assert.equal((await route(z, x, y)).status, 404);
    assert.equal(server.hits.length, 1);
  });

  it('keeps the SSRF guard: a private address the person did not allow is not fetched', async () => {
    const route = createOnlineBasemapRoute({ enabled: () => true, template: `${server.origin}/tiles/{z}/{x}/{y}.png` });
    const before = server.hits.length;
    assert.equal((await route(0, 0, 0)).status, 502);
    assert.equal(server.hits.length, before);
  });

  it('the setting round-trips through the bridge, is announced, and switches the data route', async () => {
    const saved = { ...process.env };
    process.env.MAPWRIGHT_ALLOW_ORIGINS = server.origin;
    process.env.MAPWRIGHT_ONLINE_BASEMAP_URL = `${server.origin}/tiles/{z}/{x}/{y}.png`;
    try {
      const app = await startApp(null);
      assert.deepEqual(await app.services.invoke('settings/get-display', {}), { onlineBasemap: false, language: 'en' });
      assert.equal((await app.services.serveData('tiles/basemap-online/2/1/1.png')).status, 404);
      assert.deepEqual(await app.services.invoke('settings/set-display', { onlineBasemap: true }), { onlineBasemap: true, language: 'en' });
      assert.ok(app.events.some((e) => e.name === 'settings/display-changed'));
      const tile = await app.services.serveData('tiles/basemap-online/2/1/1.png');
      assert.equal(tile.status, 200);
      const png = decodePng(tile.body as Uint8Array);
      assert.deepEqual([...png.data.subarray(0, 3)], [...TILE_COLOUR]);
      await app.services.invoke('settings/set-display', { onlineBasemap: false });
      assert.equal((await app.services.serveData('tiles/basemap-online/2/1/2.png')).status, 404);
      await app.services.close();
    } finally {
      process.env.MAPWRIGHT_ALLOW_ORIGINS = saved.MAPWRIGHT_ALLOW_ORIGINS;
      if (saved.MAPWRIGHT_ALLOW_ORIGINS === undefined) delete process.env.MAPWRIGHT_ALLOW_ORIGINS;
      delete process.env.MAPWRIGHT_ONLINE_BASEMAP_URL;
    }
  });
});
