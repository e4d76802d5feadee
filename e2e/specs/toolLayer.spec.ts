import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { colourDistance } from '../support/appDriver.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { gisFixtures } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const ELEV = join(gisFixtures, 'elev.tif');
const haveFixtures = existsSync(NC) && existsSync(ELEV);
if (!haveFixtures) console.log(`# skipping browser e2e: ${gisFixtures} is absent`);
const INSIDE_NC: [number, number] = [-78.64, 35.78];

describe('tool layer in Chromium: modes, grants, cancel, undo', { skip: !haveFixtures }, () => {
  const session = useAppSession();
  let { page, app, model } = {} as SharedApp;
  before(async () => ({ page, app, model } = await session.openApp()));

  it('Plan: only read tools are offered; "Run this plan" runs it in Ask mode', async () => {
    await app.setApprovalMode('plan');
    model.script([
      { text: '1. layers_load nc.gpkg\n2. layers_zoom_to nc' },
      (body) => ({
        text: 'Loading.',
        toolCalls: /Plan mode is on/.test(String(body.messages[0]!.content)) ? [] : [{ name: 'layers_load', arguments: { path: NC } }],
      }),
      { text: 'Plan carried out.' },
    ]);
    await app.askAgent('plan how to show the NC counties');
    await app.waitForMessage('assistant', /1\. layers_load/);
    const offered = model.requests[0]!.tools!.map((t) => t.function.name);
    assert.ok(!offered.includes('layers_load') && !offered.includes('processing_run'), 'Plan offers reads only');
    assert.match(String(model.requests[0]!.messages[0]!.content), /Plan mode is on/);
    await app.screenshot('t1-plan');
    await page.getByTestId('run-plan').click();
    await app.approvePending();
    await app.waitForLayer('nc');
    await app.waitForMessage('assistant', /Plan carried out/);
    assert.match(String(model.requests[1]!.messages.filter((m) => m.role === 'user').at(-1)!.content), /Carry out the plan/);
    assert.equal(await app.approvalMode(), 'ask');
  });

  it('Ask: "allow this tool for this session" skips the second dialog', async () => {
    model.reset();
    model.script([
      { toolCalls: [{ name: 'layers_set_opacity', arguments: { layer: 'nc', opacity: 0.8 } }] },
      { toolCalls: [{ name: 'layers_set_opacity', arguments: { layer: 'nc', opacity: 0.9 } }] },
      { text: 'Opacity set twice.' },
    ]);
    await app.askAgent('make nc a bit transparent, twice');
    await app.approvePending({ remember: true });
    await app.waitForMessage('assistant', /Opacity set twice/);
    const cards = (await app.messages()).filter((m) => m.role === 'tool');
    assert.equal(cards.length >= 2, true);
    assert.equal(await page.getByTestId('approval-dialog').count(), 0, 'no second dialog');
  });

  it('Auto: a write runs without a dialog', async () => {
    await app.setApprovalMode('auto');
    model.reset();
    model.script([{ toolCalls: [{ name: 'layers_load', arguments: { path: ELEV } }] }, { text: 'DEM loaded without asking.' }]);
    await app.askAgent('load the DEM');
    await app.waitForLayer('elev');
    await app.waitForMessage('assistant', /without asking/);
    assert.equal(await page.getByTestId('approval-dialog').count(), 0);
  });

  it('a long worker job shows progress; Stop cancels it within a second and the app stays usable', async () => {
    model.reset();
    model.script([
      { toolCalls: [{ name: 'processing_run', arguments: { algorithm: 'resample', params: { input: 'elev', resolution: 0.00002 } } }] },
      { text: 'unused' },
    ]);
    await app.askAgent('resample the DEM to 2 m');
    await page.getByTestId('tool-card-progress').first().waitFor({ timeout: 20_000 });
    await app.screenshot('t2-progress');
    const t0 = Date.now();
    await page.getByTestId('stop-run').click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="tool-card-status"]')].some((e) => e.textContent === 'error'),
    );
    const took = Date.now() - t0;
    assert.ok(took < 1500, `cancelled in ${took} ms`);
    await app.waitForRunIdle();
    const card = (await app.messages()).filter((m) => m.role === 'tool').at(-1)!;
    assert.match(card.text, /cancelled/);
    assert.deepEqual((await app.layerNames()).sort(), ['elev', 'nc']);
    model.script([{ text: 'Still responsive.' }]);
    await app.askAgent('ping');
    await app.waitForMessage('assistant', /Still responsive/);
  });

  it('Undo restores the map (pixel check); the audit panel lists the calls', async () => {
    await app.setApprovalMode('ask');
    await app.removeLayer('elev');
    await app.setMapView({ center: [-79.4, 35.5], zoom: 5 });
    const withNc = await app.mapPixelAt(...INSIDE_NC);
    model.reset();
    model.script([{ toolCalls: [{ name: 'layers_remove', arguments: { layer: 'nc' } }] }, { text: 'Removed nc.' }]);
    await app.askAgent('remove nc');
    await app.approvePending();
    await app.waitForMessage('assistant', /Removed nc/);
    await app.waitForLayerGone('nc');
    const without = await app.mapPixelAt(...INSIDE_NC);
    assert.ok(colourDistance(withNc, without) > 30, `removal changed the map: ${withNc} → ${without}`);

    await app.waitForNextMapIdle(async () => {
      await app.undo();
      await app.waitForLayer('nc');
    });
    const restored = await app.mapPixelAt(...INSIDE_NC);
    await app.screenshot('t3-undone');
    assert.ok(colourDistance(withNc, restored) < 12, `undo restores the pixels: ${withNc} vs ${restored}`);

    const tools = await app.auditToolIds();
    assert.ok(
      tools.includes('layers.remove') && tools.includes('processing.run') && tools.includes('commands.undo'),
      `audit rows: ${tools}`,
    );
    await app.screenshot('t4-audit');
  });

  it('layers_zoom_to returns once the map has settled: map_current_view right after sees the layer (issue 17)', async () => {
    // The audit log the test before opened covers the chat's Send button.
    if ((await app.page.getByTestId('audit-panel').count()) > 0) await app.page.getByTestId('audit-close').click();
    await app.setMapView({ center: [10, 50], zoom: 3 });
    model.reset();
    model.script([
      { toolCalls: [{ name: 'layers_zoom_to', arguments: { layer: 'nc' } }] },
      { toolCalls: [{ name: 'map_current_view', arguments: {} }] },
      { text: 'Zoomed and looked.' },
    ]);
    await app.askAgent('zoom to nc and tell me the view');
    await app.waitForMessage('assistant', /Zoomed and looked/);
    type View = { center: [number, number]; zoom: number; bounds: [number, number, number, number] };
    const result = (i: number) => JSON.parse(String(model.requests[i]!.messages.at(-1)!.content)) as { ok: boolean; data: unknown };
    const zoomed = result(1).data as { zoomed_to: [number, number, number, number]; view: View | null };
    const seen = result(2).data as View;
    assert.ok(zoomed.view, 'the zoom reports the view it reached');
    assert.deepEqual(seen, zoomed.view, 'current_view right after sees the settled view, not a mid-flight one');
    const [w, s, e, n] = zoomed.zoomed_to;
    assert.ok(seen.center[0] > w && seen.center[0] < e && seen.center[1] > s && seen.center[1] < n, `centre inside nc: ${seen.center}`);
    assert.ok(seen.bounds[0] <= w + 0.01 && seen.bounds[2] >= e - 0.01, `the view holds nc's extent: ${seen.bounds}`);
    assert.ok(seen.zoom > 4, `zoomed in from 3: ${seen.zoom}`);
  });
});
