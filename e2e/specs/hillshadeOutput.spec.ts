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
    const { app } = await session.openApp();
    session.model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: ELEV } }] },
      {
        toolCalls: [
          { name: 'processing_run', arguments: { algorithm: 'hillshade', params: { input: 'elev' }, output_name: 'elev_hillshade' } },
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
    await app.setLayerVisible('elev', false);
    await app.setMapView({ center: [6.1, 49.8], zoom: 9 });
    const pixels = await app.mapPixelGrid([6.0, 49.7], 0.04, 4);
    for (const px of pixels) assert.ok(Math.abs(px[0] - px[1]) < 12 && Math.abs(px[1] - px[2]) < 12, `grey: ${px}`);
    const greys = pixels.map((px) => px[0]);
    await app.screenshot('h1-hillshade-output');
    assert.ok(Math.max(...greys) - Math.min(...greys) > 10, `the relief is shaded, not flat: ${greys}`);
  });
});
