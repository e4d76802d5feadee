import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useAppSession } from '../support/appSession.js';
import { gisFixtures } from '../support/webHost.js';

const ELEV = join(gisFixtures, 'elev.tif');

/** "Hillshade the DEM" as processing: a new GeoTIFF in the outputs folder, loaded, its tiles shaded grey. */
describe('hillshade as a processing output, in Chromium', { skip: !existsSync(ELEV) }, () => {
  const session = useAppSession();

  it('the output is loaded and its tile pixels are shaded', async () => {
    const { app, page } = await session.openApp();
    session.model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: ELEV } }] },
      {
        toolCalls: [
          { name: 'processing_run', arguments: { algorithm: 'hillshade', params: { input: 'elev' }, output_name: 'elev_hillshade' } },
        ],
      },
      // Issue 17: a division by zero everywhere makes a raster of nodata only; its QA report says so.
      {
        toolCalls: [
          {
            name: 'processing_run',
            arguments: { algorithm: 'raster_calculator', params: { inputs: ['elev'], expression: 'A1 / 0' }, output_name: 'elev_void' },
          },
        ],
      },
      { text: 'Hillshade written and loaded.' },
    ]);
    await app.askAgent('load the DEM and hillshade it');
    await app.approvePending();
    await app.waitForLayer('elev');
    await app.approvePending();
    await app.waitForLayer('elev_hillshade');
    await app.waitForMessage('notice', /Loaded layer elev_hillshade \(tool output\)/);
    // Issue 17: the card's QA report — size, CRS and the exact nodata share, no warning.
    const cards = page.locator('[data-testid="chat-message"][data-role="tool"]').filter({ hasText: 'processing_run' });
    const hillshadeQa = cards.first().getByTestId('qa-report');
    await hillshadeQa.waitFor();
    assert.equal(await hillshadeQa.getAttribute('data-warnings'), '0');
    assert.match(await hillshadeQa.innerText(), /elev_hillshade · 8,550 pixels · EPSG:4326 · band 1: [\d.]+ % nodata/);
    await app.approvePending();
    await app.waitForLayer('elev_void');
    const voidQa = cards.nth(1).getByTestId('qa-report');
    await voidQa.waitFor();
    assert.equal(await voidQa.getAttribute('data-warnings'), '1');
    assert.equal(await voidQa.getByTestId('qa-warning').getAttribute('data-code'), 'empty_output');
    await app.waitForMessage('assistant', /Hillshade written/);
    const told = JSON.parse(String(session.model.requests.at(-1)!.messages.at(-1)!.content)) as {
      data: { qa: { warnings: unknown[]; instruction?: string }[] };
    };
    assert.equal(told.data.qa[0]!.instruction, 'Mention these warnings to the person.');
    await app.screenshot('h0-qa-report');
    await app.setLayerVisible('elev_void', false);
    await app.setLayerVisible('elev', false);
    await app.setMapView({ center: [6.1, 49.8], zoom: 9 });
    const pixels = await app.mapPixelGrid([6.0, 49.7], 0.04, 4);
    for (const px of pixels) assert.ok(Math.abs(px[0] - px[1]) < 12 && Math.abs(px[1] - px[2]) < 12, `grey: ${px}`);
    const greys = pixels.map((px) => px[0]);
    await app.screenshot('h1-hillshade-output');
    assert.ok(Math.max(...greys) - Math.min(...greys) > 10, `the relief is shaded, not flat: ${greys}`);
  });
});
