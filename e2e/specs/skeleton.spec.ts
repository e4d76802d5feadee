import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ScriptedModelServer } from '../model-server/scriptedModelServer.js';
import { colourDistance } from '../support/appDriver.js';
import { useAppSession } from '../support/appSession.js';
import { gisFixtures } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping browser e2e: ${gisFixtures} is absent`);

/** Raleigh, well inside the North Carolina counties of nc.gpkg. */
const INSIDE_NC: [number, number] = [-78.64, 35.78];

describe('walking skeleton in Chromium against the web host', { skip: !haveFixtures }, () => {
  const session = useAppSession();
  let model: ScriptedModelServer;
  before(() => {
    model = session.model;
  });

  it('(a) load → approval dialog → approve → layer listed and drawn on the map', async () => {
    const { page, app } = await session.openApp();
    await app.screenshot('a0-empty-basemap');
    // Centre the map on North Carolina so the pixel check reads the layer, not the edge.
    await app.setMapView({ center: [-79.4, 35.5], zoom: 5 });
    const before = await app.mapPixelAt(...INSIDE_NC);

    model.script([
      { text: 'I will load the North Carolina counties.', toolCalls: [{ name: 'layers_load', arguments: { path: NC } }] },
      { text: 'Loaded: 100 counties of North Carolina.' },
    ]);
    await app.askAgent(`load ${NC}`);
    await app.waitForMessage('assistant', /I will load the North Carolina counties/);
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /Load layer/);
    assert.match(dialog.text, /layers_load|layers\.load/);
    assert.ok(dialog.text.includes(NC), 'the dialog shows the full arguments');
    await app.screenshot('a1-approval-dialog');
    await app.approvePending();
    await app.waitForLayer('nc');
    await app.waitForMessage('assistant', /Loaded: 100 counties/);
    await app.waitForMessage('notice', /Loaded layer nc/);
    const after = await app.mapPixelAt(...INSIDE_NC);
    await app.screenshot('a2-layer-loaded');
    assert.ok(colourDistance(before, after) > 40, `map pixel over NC should change: ${before} → ${after}`);
    assert.deepEqual(await app.layerNames(), ['nc']);
    const cards = await app.messages();
    assert.ok(
      cards.some((m) => m.role === 'tool' && /ok/i.test(m.text)),
      'a tool card with its status',
    );
    await page.close();
  });

  it('(b) reject → the model receives rejected_by_user and its reply is shown', async () => {
    const { page, app } = await session.openApp();
    model.reset();
    model.script([
      { toolCalls: [{ name: 'layers_remove', arguments: { layer: 'nc' } }] },
      (body) => {
        const result = JSON.parse(String(body.messages.at(-1)!.content)) as { error?: { code: string } };
        return { text: result.error?.code === 'rejected_by_user' ? 'OK, I will not remove nc.' : 'Unexpected result.' };
      },
    ]);
    await app.askAgent('remove the nc layer');
    await app.rejectPending();
    await app.waitForMessage('assistant', /OK, I will not remove nc\./);
    const sent = model.requests[1]!.messages.at(-1)!;
    assert.equal(sent.role, 'tool');
    const parsed = JSON.parse(String(sent.content));
    assert.deepEqual(
      { ok: parsed.ok, code: parsed.error.code, retryable: parsed.error.retryable },
      { ok: false, code: 'rejected_by_user', retryable: false },
    );
    assert.deepEqual(await app.layerNames(), ['nc'], 'nothing was removed');
    await app.screenshot('b-rejected');
    await page.close();
  });

  it('(c) reload the page and restart the host → layers and conversation are back', async () => {
    const { page, app } = await session.openApp();
    const beforeMessages = await app.messages();
    await app.reload();
    await app.waitForLayer('nc');
    assert.deepEqual(await app.messages(), beforeMessages, 'reload shows the same conversation');

    await session.restartHostAndReopen(app);
    await app.waitForLayer('nc');
    const restored = await app.messages();
    assert.deepEqual(
      restored.map((m) => m.role),
      beforeMessages.map((m) => m.role),
    );
    assert.ok(restored.some((m) => /OK, I will not remove nc/.test(m.text)));
    await app.setMapView({ center: [-79.4, 35.5], zoom: 5 });
    const px = await app.mapPixelAt(...INSIDE_NC);
    await app.screenshot('c-after-restart');
    const land = [242, 239, 233];
    assert.ok(colourDistance(px, land) > 40, `the layer is drawn again after restart: ${px}`);
    await page.close();
  });

  it('(d) bad input → a readable error in the chat, the app stays alive', async () => {
    const { page, app } = await session.openApp();
    // Outside the data folder: files there are the app's own, which no tool may open.
    const bad = join(mkdtempSync(join(tmpdir(), 'mapwright-bad-')), 'not-a-shapefile.shp');
    writeFileSync(bad, 'plain text, not a shapefile\n');
    model.reset();
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: bad } }] },
      { text: 'That file could not be read as GIS data.' },
    ]);
    await app.askAgent(`load ${bad}`);
    await app.approvePending();
    await app.waitForMessage('assistant', /could not be read/);
    const cards = (await app.messages()).filter((m) => m.role === 'tool');
    assert.ok(cards.at(-1)!.text.includes('not-a-shapefile.shp'), `the card shows the error: ${cards.at(-1)!.text}`);
    const result = JSON.parse(String(model.requests[1]!.messages.at(-1)!.content));
    assert.equal(result.ok, false);
    assert.equal(typeof result.error.code, 'string');
    assert.equal(typeof result.error.retryable, 'boolean');
    await app.screenshot('d-bad-input');

    // Alive: the next request works and the layer from before is still there.
    model.script([{ text: 'Still here.' }]);
    await app.askAgent('are you there?');
    await app.waitForMessage('assistant', /Still here\./);
    assert.deepEqual(await app.layerNames(), ['nc']);
    await page.close();
  });
});
