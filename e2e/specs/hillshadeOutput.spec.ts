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
    const { page, app } = await session.openApp();
    session.model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: ELEV } }] },
      { toolCalls: [{ name: 'processing_run', arguments: { algorithm: 'hillshade', params: { input: 'elev' }, output_name: 'elev_hillshade' } }] },
      { text: 'Hillshade written and loaded.' },
    ]);
    await app.askAgent('load the DEM and hillshade it');
    await app.approvePending();
    await app.waitForLayer('elev');
    await app.approvePending();
    await app.waitForLayer('elev_hillshade');
    await app.waitForMessage('notice', /Loaded layer elev_hillshade \(tool output\)/);
    await page.locator('[data-testid="layer-item"][data-layer-name="elev"]').getByTestId('layer-visibility').uncheck();
    await page.evaluate(() => {
      const w = window as unknown as { __mapwright: { map: { jumpTo(o: object): void } } };
      w.__mapwright.map.jumpTo({ center: [6.1, 49.8], zoom: 9 });
    });
    await page.waitForTimeout(500);
    const greys: number[] = [];
    for (let i = 0; i < 16; i++) {
      const px = await app.mapPixelAt(6.0 + (i % 4) * 0.04, 49.7 + Math.floor(i / 4) * 0.04);
      assert.ok(Math.abs(px[0] - px[1]) < 12 && Math.abs(px[1] - px[2]) < 12, `grey: ${px}`);
      greys.push(px[0]);
    }
    await app.screenshot('h1-hillshade-output');
    assert.ok(Math.max(...greys) - Math.min(...greys) > 10, `the relief is shaded, not flat: ${greys}`);
  });
});
