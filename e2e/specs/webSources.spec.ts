import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSourceTestServer, TILE_COLOUR, type SourceTestServer } from '../../src-main/web/sourceTestServers.js';
import { useAppSession } from '../support/appSession.js';

/**
 * Network map sources (issue #13), in Chromium: the scripted model adds an XYZ source from a
 * loopback tile server; the dialog names the origin; once approved, the layer paints and the
 * origin is remembered for the project — the next source from it asks only as a write (Ask
 * mode), or not at all (Auto).
 */
describe('network map sources: asked once per origin, then remembered for the project', () => {
  let server: SourceTestServer;
  // Filled before the host starts (this hook is registered before the session's).
  const env: Record<string, string> = {};
  before(async () => {
    server = await startSourceTestServer();
    env.MAPWRIGHT_ALLOW_ORIGINS = server.origin;
    // The online basemap's template, pointed at the same loopback tile server.
    env.MAPWRIGHT_ONLINE_BASEMAP_URL = `${server.origin}/tiles/{z}/{x}/{y}.png`;
  });
  after(async () => {
    await server?.close();
  });
  const session = useAppSession({ env });

  const template = () => `${server.origin}/tiles/{z}/{x}/{y}.png`;
  const close = (px: readonly number[], want: readonly number[]) => want.every((c, i) => Math.abs(px[i]! - c) <= 12);

  it('the dialog names the origin; approved, the tiles paint on the map', async () => {
    const { app, model } = await session.openApp();
    model.script([
      { toolCalls: [{ name: 'layers_add_web_source', arguments: { kind: 'xyz', url: template(), name: 'tiles', max_zoom: 12 } }] },
      { text: 'Added the tile layer.' },
    ]);
    await app.askAgent('add the tile server as a layer');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, new RegExp(`Connects to the network:\\s*${server.origin.replace(/[.:/]/g, '\\$&')}`));
    await app.approvePending();
    await app.waitForLayer('tiles');
    await app.waitForRunIdle();
    await app.setMapView({ center: [10, 20], zoom: 4 });
    const pixels = await app.mapPixelsAt([
      [10, 20],
      [14, 17],
      [6, 23],
    ]);
    await app.screenshot('w1-web-source-xyz');
    for (const px of pixels) assert.ok(close(px, TILE_COLOUR), `the tile colour is drawn: ${px.join(',')}`);
    assert.ok(server.hits.some((h) => /^GET \/tiles\//.test(h)));
  });

  it('a second source from the same origin: only the write question in Ask mode, none in Auto', async () => {
    const { app, model } = await session.openApp();
    model.script([
      { toolCalls: [{ name: 'layers_add_web_source', arguments: { kind: 'xyz', url: template(), name: 'tiles again', max_zoom: 10 } }] },
      { text: 'Added it again.' },
    ]);
    await app.askAgent('add it once more');
    const dialog = await app.waitForApproval();
    assert.doesNotMatch(dialog.text, /Connects to the network/);
    assert.match(dialog.text, /already approved for this project/);
    await app.approvePending();
    await app.waitForLayer('tiles again');
    await app.waitForRunIdle();

    await app.setApprovalMode('auto');
    model.script([
      { toolCalls: [{ name: 'layers_add_web_source', arguments: { kind: 'tms', url: template(), name: 'tiles tms', max_zoom: 10 } }] },
      { text: 'Added the TMS view.' },
    ]);
    await app.askAgent('and as TMS');
    await app.waitForLayer('tiles tms');
    await app.waitForRunIdle();
    const ids = await app.auditToolIds();
    assert.equal(ids.filter((id) => id === 'layers.add_web_source').length, 3);
    await app.setApprovalMode('ask');
  });

  it('the online basemap: off by default; switched on in Settings it is drawn (through main), off again the offline map returns', async () => {
    const { app, page } = await session.openApp();
    for (const name of ['tiles', 'tiles again', 'tiles tms']) await app.setLayerVisible(name, false);
    await app.setMapView({ center: [-30, 0], zoom: 3 });
    const [offline] = await app.mapPixelsAt([[-30, 0]]);
    assert.ok(!close(offline!, TILE_COLOUR), `the offline basemap first: ${offline!.join(',')}`);
    const before = server.hits.length;
    await app.openSettings();
    const toggle = page.getByTestId('settings-online-basemap');
    assert.equal(await toggle.isChecked(), false);
    // Applied through main, then shown: the checkbox follows main's answer.
    await toggle.click();
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="settings-online-basemap"]') as HTMLInputElement | null)?.checked,
    );
    await app.closeSettings();
    await app.waitForMapIdle();
    const [online] = await app.mapPixelsAt([[-30, 0]]);
    await app.screenshot('w2-online-basemap');
    assert.ok(close(online!, TILE_COLOUR), `the online basemap is drawn: ${online!.join(',')}`);
    assert.ok(server.hits.length > before, 'main fetched the tiles');
    await app.openSettings();
    await page.getByTestId('settings-online-basemap').click();
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="settings-online-basemap"]') as HTMLInputElement | null)?.checked === false,
    );
    await app.closeSettings();
    const [again] = await app.mapPixelsAt([[-30, 0]]);
    assert.deepEqual(again, offline);
  });
});
