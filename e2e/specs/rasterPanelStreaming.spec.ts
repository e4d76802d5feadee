import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { colourDistance } from '../support/appDriver.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { gisFixtures } from '../support/webHost.js';

const ELEV = join(gisFixtures, 'elev.tif');
const haveFixtures = existsSync(ELEV);
if (!haveFixtures) console.log(`# skipping browser e2e: ${gisFixtures} is absent`);

/** Inside terra's elev.tif (Luxembourg, SRTM-derived elevation). */
const IN_LUXEMBOURG: [number, number] = [6.0, 49.75];

describe('raster tiles, the layer panel, streaming and Stop', { skip: !haveFixtures }, () => {
  const session = useAppSession();
  let { page, app, model } = {} as SharedApp;
  before(async () => ({ page, app, model } = await session.openApp()));

  it('a GeoTIFF arrives as worker-rendered tiles over the basemap', async () => {
    await app.setMapView({ center: [6.1, 49.8], zoom: 8 });
    const basemap = await app.mapPixelAt(...IN_LUXEMBOURG);
    model.script([{ toolCalls: [{ name: 'layers_load', arguments: { path: ELEV } }] }, { text: 'The elevation raster is loaded.' }]);
    await app.askAgent(`load ${ELEV}`);
    await app.approvePending();
    await app.waitForLayer('elev');
    await app.waitForMessage('assistant', /elevation raster is loaded/);
    await app.setMapView({ center: [6.1, 49.8], zoom: 8 });
    const raster = await app.mapPixelAt(...IN_LUXEMBOURG);
    await app.screenshot('r1-raster-tiles');
    assert.ok(colourDistance(basemap, raster) > 30, `the raster is drawn: ${basemap} → ${raster}`);
    assert.ok(Math.abs(raster[0] - raster[1]) < 12 && Math.abs(raster[1] - raster[2]) < 12, `a grey ramp: ${raster}`);
  });

  it('panel actions go through the dispatcher as the user: opacity, visibility, remove — no dialog, persisted', async () => {
    await app.setLayerOpacity('elev', 0);
    const hidden = await app.mapPixelAt(...IN_LUXEMBOURG);
    await app.setLayerOpacity('elev', 100);
    const shown = await app.mapPixelAt(...IN_LUXEMBOURG);
    assert.ok(colourDistance(hidden, shown) > 30, `opacity 0 shows the basemap, 100 the raster: ${hidden} vs ${shown}`);

    await app.setLayerVisible('elev', false);
    // The idle the driver waits for can be a late one of the opacity change on a loaded machine:
    // the hidden layer is looked for until the map has drawn the change.
    let invisible = await app.mapPixelAt(...IN_LUXEMBOURG);
    for (let i = 0; i < 50 && colourDistance(invisible, hidden) >= 20; i++) {
      await new Promise((r) => setTimeout(r, 200));
      invisible = await app.mapPixelAt(...IN_LUXEMBOURG);
    }
    assert.ok(colourDistance(invisible, hidden) < 20, `hidden layer is not drawn: ${invisible}`);
    assert.equal(await page.getByTestId('approval-dialog').count(), 0, 'the person’s own actions need no dialog');

    await app.reload();
    await app.waitForLayer('elev');
    assert.equal(await app.isLayerVisible('elev'), false, 'visibility was saved');

    await app.removeLayer('elev');
    assert.deepEqual(await app.layerNames(), []);
  });

  it('the reply streams in, and Stop ends a run cleanly', async () => {
    const long = 'Natural Earth is a public domain map dataset available at 1:10m, 1:50m, and 1:110m scales. '.repeat(4);
    model.reset();
    model.script([{ text: long, chunkSize: 4, delayMs: 15 }]);
    await app.askAgent('tell me about Natural Earth');
    // Seen partially before it is complete: the text grows as deltas arrive.
    const partial = await app.waitForMessage('assistant', /Natural Earth is a public/);
    assert.ok(partial.length < long.trim().length, `seen while streaming (${partial.length} of ${long.length} chars)`);
    await app.waitForMessage('assistant', /110m scales\.\s*$/);
    await app.waitForRunIdle();

    model.script([{ text: 'This answer is very slow. '.repeat(40), chunkSize: 2, delayMs: 50 }]);
    await app.askAgent('say something slowly');
    await app.waitForMessage('assistant', /This answer/);
    await page.getByTestId('stop-run').click();
    await app.waitForMessage('notice', /Stopped/);
    await app.waitForRunIdle();
    await app.screenshot('s-stopped');
    // The chat is usable again and the partial reply was kept as shown.
    model.script([{ text: 'Ready again.' }]);
    await app.askAgent('hello again');
    await app.waitForMessage('assistant', /Ready again\./);
    const msgs = await app.messages();
    const cut = msgs.find((m) => m.role === 'assistant' && /This answer/.test(m.text))!;
    assert.ok(cut.text.length < 'This answer is very slow. '.repeat(40).trim().length, 'the stopped reply is partial');
  });
});
