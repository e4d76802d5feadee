import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { colourDistance } from '../support/appDriver.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { lastToolResult, offeredTools } from '../support/modelRequests.js';
import { gisFixtures } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping code-run e2e: ${gisFixtures} is absent`);

const BUFFER_CODE = `const nc = await layers.open('nc');
const out = await output('big_counties', 'gpkg', {
  geometryType: 'MultiPolygon', srs: nc.srs.epsg,
  fields: [{ name: 'name', type: 'string' }],
});
const rows = [];
for await (const f of nc.features({ where: 'AREA > 0.2' })) {
  rows.push({ geometry: await geo.buffer(f.geometry, 0.02), properties: { name: f.properties.NAME } });
}
print('added', await out.addFeatures(rows), 'counties');`;
/** Inside Robeson county, one of the 11 counties with AREA > 0.2. */
const IN_ROBESON: [number, number] = [-79.1, 34.64];
const INTENT = 'Buffers the largest North Carolina counties by 0.02 degrees into a new layer.';

describe('code.run_js in Chromium: highlighted approval, output layer, Stop', { skip: !haveFixtures }, () => {
  const session = useAppSession();
  let { page, app, model } = {} as SharedApp;
  before(async () => ({ page, app, model } = await session.openApp()));

  it('the model proposes code; the dialog shows it highlighted with the intent; approved, its output layer appears', async () => {
    model.reset();
    model.script([{ toolCalls: [{ name: 'layers_load', arguments: { path: NC } }] }, { text: 'Loaded nc.' }]);
    await app.askAgent('load the NC counties');
    await app.approvePending();
    await app.waitForLayer('nc');
    await app.waitForMessage('assistant', /Loaded nc/);
    await app.waitForMapIdle();
    const ncColour = await app.mapPixelAt(...IN_ROBESON);

    model.reset();
    model.script([
      (body) =>
        offeredTools(body).includes('code_run_js')
          ? { text: 'I will run a short script.', toolCalls: [{ name: 'code_run_js', arguments: { code: BUFFER_CODE, intent: INTENT } }] }
          : { text: `code_run_js was not offered; got ${offeredTools(body).join(', ')}` },
      { text: 'Done: the buffered counties are on the map.' },
    ]);
    await app.askAgent('buffer the big counties with a script');
    await app.waitForApproval();
    const block = page.getByTestId('approval-code');
    await block.waitFor();
    assert.equal(await block.getAttribute('data-language'), 'javascript');
    assert.ok((await block.innerText()).includes("await layers.open('nc')"), 'the code is shown as it will run');
    assert.ok((await block.locator('.hljs-keyword').count()) >= 5, 'keywords are highlighted');
    assert.ok((await block.locator('.hljs-string').count()) >= 3, 'strings are highlighted');
    assert.equal(await page.getByTestId('approval-intent').innerText(), INTENT);
    assert.equal(await page.getByTestId('approval-remember').count(), 0, 'destructive: never remembered');
    await app.screenshot('c1-code-approval');

    await app.approvePending();
    const card = await app.waitForToolCard('code_run_js', 'ok', 60_000);
    assert.ok(card.length > 0);
    const highlighted = page.locator('.tool-card .code-view[data-language="javascript"]').last();
    assert.ok((await highlighted.locator('.hljs-keyword').count()) > 0, 'the tool card shows the code highlighted, not as a JSON string');
    await app.waitForLayer('big_counties');
    await app.waitForMessage('assistant', /buffered counties are on the map/);
    await app.waitForMapIdle();
    const drawn = await app.mapPixelAt(...IN_ROBESON);
    assert.ok(colourDistance(ncColour, drawn) > 30, `the output is drawn over Robeson county: ${ncColour} → ${drawn}`);
    assert.match(lastToolResult(model.requests[1]), /added 11 counties/, 'the model reads what the snippet printed');
    await app.screenshot('c2-code-output-layer');
  });

  it('Stop during an endless loop ends it within a second, and nothing is added', async () => {
    model.reset();
    model.script([
      {
        toolCalls: [
          {
            name: 'code_run_js',
            arguments: {
              code: "const o = await output('never', 'gpkg', {});\nprint('spinning');\nfor (;;) {}",
              intent: 'Spins forever, to test Stop.',
            },
          },
        ],
      },
      { text: 'unused' },
    ]);
    const layersBefore = (await app.layerNames()).sort();
    await app.askAgent('spin');
    await app.approvePending();
    // The snippet printed: it is inside its loop now.
    await page.locator('[data-testid="chat-message"][data-role="tool"]').filter({ hasText: 'Running' }).last().waitFor({ timeout: 30_000 });
    await app.screenshot('c3-code-running');
    const t0 = Date.now();
    await page.getByTestId('stop-run').click();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="chat-message"][data-role="tool"]')]
          .at(-1)
          ?.querySelector('[data-testid="tool-card-status"]')
          ?.getAttribute('data-status') === 'error',
      undefined,
      { timeout: 5000 },
    );
    const took = Date.now() - t0;
    console.log(`# Stop to error card: ${took} ms`);
    assert.ok(took < 1000, `stopped in ${took} ms`);
    await app.waitForRunIdle();
    const card = (await app.messages()).filter((m) => m.role === 'tool').at(-1)!;
    assert.match(card.text, /cancelled|stopped/);
    assert.deepEqual((await app.layerNames()).sort(), layersBefore);
  });
});
