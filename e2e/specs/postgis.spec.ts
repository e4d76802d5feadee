import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Locator } from 'playwright-core';
import type { PgTestCluster } from '../../src-main/postgis/testing/pgTestCluster.js';
import { pgClusterSuite } from '../../src-main/postgis/testing/pgTestSuite.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { postgisPanel } from '../support/postgisPanel.js';
import { gisFixtures } from '../support/webHost.js';

interface TileResponse {
  url: string;
  status: number;
  header: string | undefined;
}

/**
 * The PostGIS panel (issue 16) against a real throwaway PostgreSQL + PostGIS
 * (src-main/postgis/testing/pgTestCluster.ts: the NC counties and a million points): the
 * person adds a connection, tests it, browses its tables and loads two of them; the large one
 * is drawn from vector tiles the server makes (`X-Mapwright-Tile: server; …`). A wrong
 * password is reported as such. Without the server binaries every test skips and says why.
 */
describe('the PostGIS panel: connect, test, browse and load from a real server', () => {
  const pg = pgClusterSuite({ ncGpkg: join(gisFixtures, 'nc.gpkg') });
  const need = (t: TestContext) => pg.need(t);

  const session = useAppSession({ homePrefix: 'mapwright-e2e-postgis-' });
  let { page, app } = {} as SharedApp;
  let bridge: BridgeSocket;
  const tiles: TileResponse[] = [];

  before(async () => {
    if (!(await pg.ready())) return;
    ({ page, app } = await session.openApp({
      beforeOpen: (p) =>
        p.on('response', (r) => {
          if (/\/tiles\/.*\.pbf/.test(r.url())) tiles.push({ url: r.url(), status: r.status(), header: r.headers()['x-mapwright-tile'] });
        }),
    }));
    bridge = await BridgeSocket.connect(session.host.url);
  });
  after(() => bridge?.close());

  const panel = postgisPanel(() => page);
  const { item, tableRow } = panel;
  const openPanel = panel.open;
  const layerItem = (part: string): Locator => page.locator(`[data-testid="layer-item"][data-layer-name*="${part}"]`);
  const projectLayers = async () =>
    (await bridge.call<{ layers: { id: string; name: string; source: string; sublayer: string | null }[] }>('project/get')).layers;

  const addConnection = (c: PgTestCluster, name: string, password: string) => panel.addConnection(c, { name, password });

  it('adds a connection (main refuses a bad host by name), and tests it: the server and PostGIS versions', async (t) => {
    const c = need(t);
    if (!c) return;
    await openPanel();
    assert.match(await page.getByTestId('postgis-password-store').innerText(), /\S/, 'the panel says where passwords are kept');

    // A draft main refuses: its error stays under the form, the values kept.
    await page.getByTestId('postgis-add').click();
    await page.getByTestId('postgis-name').fill('Broken');
    await page.getByTestId('postgis-host').fill('not a host/');
    await page.getByTestId('postgis-database').fill('x');
    await page.getByTestId('postgis-user').fill('x');
    await page.getByTestId('postgis-save').click();
    const formError = page.getByTestId('postgis-form').getByTestId('postgis-error');
    assert.match(await formError.innerText(), /host/i);
    assert.equal(await page.getByTestId('postgis-host').inputValue(), 'not a host/');
    await page.getByTestId('postgis-cancel').click();
    await page.getByTestId('postgis-form').waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('postgis-connection-item').count(), 0);

    const conn = await addConnection(c, 'Test cluster', c.password);
    assert.match(await conn.innerText(), new RegExp(`${c.user}@127\\.0\\.0\\.1:${c.port}/${c.database}`));
    assert.equal(await conn.getByTestId('postgis-has-password').getAttribute('data-value'), 'true', 'the lock: a password is stored');
    const listed = JSON.stringify(await bridge.call('postgis/connections'));
    assert.ok(!listed.includes(c.password), 'the password never comes back from main');

    await conn.getByTestId('postgis-test').click();
    const result = conn.locator('[data-testid="postgis-test-result"][data-ok]');
    await result.waitFor({ timeout: 20_000 });
    assert.equal(await result.getAttribute('data-ok'), 'true', await result.innerText());
    assert.match(await result.innerText(), /^PostgreSQL \d+(\.\d+)* · PostGIS \d+\.\d+/);
    await app.screenshot('pg1-connection-tested');
  });

  it('browses: nc_counties and points_1m by schema, with geometry, SRID and the row estimate', async (t) => {
    if (!need(t)) return;
    await openPanel();
    const conn = item('Test cluster');
    await conn.getByTestId('postgis-browse').click();
    await conn.getByTestId('postgis-table-list').waitFor({ timeout: 20_000 });
    const schemas = await conn.getByTestId('postgis-schema').evaluateAll((els) => els.map((e) => e.getAttribute('data-schema')));
    assert.deepEqual(schemas, ['public']);

    const nc = tableRow(conn, 'public', 'nc_counties');
    const ncText = await nc.innerText();
    assert.match(ncText, /public\.nc_counties/);
    assert.match(ncText, /geom MULTIPOLYGON · SRID 4267/);
    assert.match(ncText, /\b100 rows\b/, 'a small table never analysed is counted exactly');

    const points = tableRow(conn, 'public', 'points_1m');
    const pointsText = await points.innerText();
    assert.match(pointsText, /public\.points_1m/);
    // The cluster generates the points in NAD27 (4267), on the counties' map.
    assert.match(pointsText, /geom POINT · SRID 4267/);
    const estimate = Number(await points.getAttribute('data-rows'));
    assert.ok(Math.abs(estimate - 1_000_000) <= 100_000, `estimate ${estimate}`);
    assert.match(pointsText, new RegExp(`≈ ${estimate.toLocaleString('en')} rows`));
    await app.screenshot('pg2-browsed');
  });

  it('loads nc_counties: a layer appears in the layer panel', async (t) => {
    if (!need(t)) return;
    await openPanel();
    const row = tableRow(item('Test cluster'), 'public', 'nc_counties');
    await row.getByTestId('postgis-load').click();
    await row.locator('[data-testid="postgis-loaded"], [data-testid="postgis-error"]').first().waitFor({ timeout: 60_000 });
    await app.screenshot('pg3a-nc-load-outcome');
    const failed = row.getByTestId('postgis-error');
    assert.equal(await failed.count(), 0, `load failed: ${(await failed.count()) ? await failed.innerText() : ''}`);
    await layerItem('nc_counties').waitFor({ timeout: 20_000 });
    const layer = (await projectLayers()).find((l) => l.name.includes('nc_counties'));
    assert.match(layer?.source ?? '', /^postgis:\/\//);
    await app.waitForMapIdle();
    await app.screenshot('pg3-nc-loaded');
  });

  it('loads points_1m: drawn from vector tiles the server makes', async (t) => {
    if (!need(t)) return;
    await openPanel();
    const row = tableRow(item('Test cluster'), 'public', 'points_1m');
    const load = row.getByTestId('postgis-load');
    await load.click();
    await row.locator('[data-testid="postgis-loaded"], [data-testid="postgis-error"]').first().waitFor({ timeout: 120_000 });
    await app.screenshot('pg4a-points-load-outcome');
    const failed = row.getByTestId('postgis-error');
    assert.equal(await failed.count(), 0, `load failed: ${(await failed.count()) ? await failed.innerText() : ''}`);
    assert.equal(await load.isEnabled(), true, 'Load is enabled again once done');
    await layerItem('points_1m').waitFor({ timeout: 20_000 });
    const layer = (await projectLayers()).find((l) => l.name.includes('points_1m'));
    assert.ok(layer, 'the points layer is in the project');

    // Close the panel and hide the counties so the map shows the points alone.
    await page.getByTestId('postgis-close').click();
    const nc = (await projectLayers()).find((l) => l.name.includes('nc_counties'));
    if (nc) await app.setLayerVisible(nc.name, false);
    await app.waitForMapIdle();
    const mine = tiles.filter((r) => r.url.includes(`/tiles/${layer.id}/`));
    assert.ok(
      mine.length > 0,
      `vector tiles of ${layer.id} requested; tile requests seen: ${tiles.map((r) => r.url).join(', ') || 'none'}`,
    );
    assert.ok(
      mine.every((r) => r.status === 200 || r.status === 204 || r.status === 304),
      mine.map((r) => `${r.status} ${r.url}`).join('\n'),
    );
    assert.ok(
      mine.some((r) => /\bserver\b/.test(r.header ?? '')),
      `X-Mapwright-Tile says the server made them: ${[...new Set(mine.map((r) => r.header))].join(' | ')}`,
    );
    assert.ok((await app.renderedFeatureCount('vector')) > 1000, 'thousands of points are drawn');
    await app.screenshot('pg4-points-from-server-tiles');
  });

  it('a wrong password: the test says the server refused it', async (t) => {
    const c = need(t);
    if (!c) return;
    await openPanel();
    const conn = await addConnection(c, 'Wrong password', `${c.password}-wrong`);
    await conn.getByTestId('postgis-test').click();
    const result = conn.locator('[data-testid="postgis-test-result"][data-ok]');
    await result.waitFor({ timeout: 20_000 });
    assert.equal(await result.getAttribute('data-ok'), 'false');
    assert.equal(await result.getAttribute('data-code'), 'auth_failed', await result.innerText());
    assert.match(await result.innerText(), /password|auth/i);
    await app.screenshot('pg5-wrong-password');

    // Edited with the right password, the same connection works; then it is deleted (asked first).
    await conn.getByTestId('postgis-edit').click();
    assert.equal(await page.getByTestId('postgis-password').inputValue(), '', 'the stored password is never shown');
    await page.getByTestId('postgis-password').fill(c.password);
    await page.getByTestId('postgis-save').click();
    await page.getByTestId('postgis-form').waitFor({ state: 'detached' });
    await item('Wrong password').getByTestId('postgis-test').click();
    const again = item('Wrong password').locator('[data-testid="postgis-test-result"][data-ok]');
    await again.waitFor({ timeout: 20_000 });
    assert.equal(await again.getAttribute('data-ok'), 'true', await again.innerText());
    await item('Wrong password').getByTestId('postgis-delete').click();
    await item('Wrong password').getByTestId('postgis-delete-confirm').click();
    await item('Wrong password').waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('postgis-connection-item').count(), 1);
  });
});
