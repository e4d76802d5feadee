import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sampleRamp } from '../../src-shared/style/colourRamps.js';
import { colourDistance } from '../support/appDriver.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { gisFixtures } from '../support/webHost.js';

const COUNTRIES = join(gisFixtures, 'ne_110m_admin_0_countries.json');
const ELEV = join(gisFixtures, 'elev.tif');
const haveFixtures = existsSync(COUNTRIES) && existsSync(ELEV);
if (!haveFixtures) console.log(`# skipping style e2e: ${gisFixtures} is absent`);

/** Inside India (1.4 billion people: the top quantile) and Greenland (56,000: the bottom), away from their labels. */
const IN_INDIA: [number, number] = [76.0, 14.5];
const IN_GREENLAND: [number, number] = [-47.5, 66.0];
/** The basemap's land colour, under the 0.7-opaque fill. */
const LAND = [0xf2, 0xef, 0xe9];

function blend(hex: string, over: number[], alpha: number): number[] {
  return [1, 3, 5].map((k, i) => Math.round(Number.parseInt(hex.slice(k, k + 2), 16) * alpha + over[i]! * (1 - alpha)));
}

describe('styling in Chromium: graduated colours, labels from offline glyphs, the legend, hillshade', { skip: !haveFixtures }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-style-' });
  let { page, app, model } = {} as SharedApp;
  const glyphResponses: { url: string; status: number }[] = [];
  const warnings: string[] = [];

  before(async () => {
    ({ page, app, model } = await session.openApp({
      beforeOpen: (p) => {
        p.on('response', (r) => {
          if (r.url().includes('/assets/glyphs/')) glyphResponses.push({ url: decodeURIComponent(r.url()), status: r.status() });
        });
        p.on('console', (m) => {
          if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
        });
      },
    }));
  });

  it('"colour the countries by population in 5 quantile classes and label them"', async () => {
    const layer = 'ne_110m_admin_0_countries';
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: COUNTRIES } }] },
      { toolCalls: [{ name: 'style_graduate', arguments: { layer, field: 'POP_EST', method: 'quantile', classes: 5, ramp: 'ylorrd' } }] },
      { toolCalls: [{ name: 'style_labels', arguments: { layer, field: 'NAME', size: 11 } }] },
      { text: 'Countries coloured by population in five quantile classes, and labelled.' },
    ]);
    await app.askAgent('colour the countries by population in 5 quantile classes and label them');
    await app.approvePending();
    await app.waitForLayer(layer);
    const graduate = await app.waitForApproval();
    // The dialog previews the classes computed from the data before anything changes.
    assert.match(graduate.text, /Graduated style/);
    assert.match(graduate.text, /\(3[56]\);/);
    await app.approvePending();
    await app.approvePending();
    await app.waitForMessage('assistant', /five quantile classes/);
    await app.setMapView({ center: [15, 42], zoom: 1.4 });

    const india = await app.mapPixelAt(...IN_INDIA);
    const greenland = await app.mapPixelAt(...IN_GREENLAND);
    await app.screenshot('st1-graduated-labels');
    const [low, , , , high] = sampleRamp('ylorrd', 5);
    assert.ok(colourDistance(india, blend(high!, LAND, 0.7)) < 30, `India in the top class: ${india} vs ${blend(high!, LAND, 0.7)}`);
    assert.ok(
      colourDistance(greenland, blend(low!, LAND, 0.7)) < 30,
      `Greenland in the bottom class: ${greenland} vs ${blend(low!, LAND, 0.7)}`,
    );
    assert.ok(colourDistance(india, greenland) > 80, 'two different class colours');

    // A label layer exists and placed text, drawn from the shipped glyphs.
    const labels = await app.placedLabels('NAME');
    assert.ok(labels, 'a label layer is on the map');
    assert.ok(labels.texts.length > 20, `labels placed: ${labels.texts.length}`);
    assert.ok(labels.texts.includes('India'));
    // One label per country (the label point of its widest part), not one per island.
    assert.equal(new Set(labels.texts).size, labels.texts.length, `duplicated labels: ${labels.texts.join(', ')}`);
    assert.ok(
      glyphResponses.some((r) => r.url.includes('/assets/glyphs/DejaVu Sans Book/0-255.pbf') && r.status === 200),
      JSON.stringify(glyphResponses),
    );
    assert.ok(
      glyphResponses.every((r) => r.status === 200),
      JSON.stringify(glyphResponses),
    );
    assert.ok(!warnings.some((w) => /glyph/i.test(w)), `no glyph warnings: ${warnings.join(' | ')}`);

    // The legend shows the five classes in the ramp's colours.
    const legend = page.locator(`[data-testid="legend-layer"][data-layer-name="${layer}"]`);
    const swatches = await legend.getByTestId('legend-swatch').evaluateAll((els) => els.map((e) => e.getAttribute('data-colour')));
    assert.deepEqual(swatches, sampleRamp('ylorrd', 5));
    assert.match(await legend.innerText(), /POP_EST/);
    assert.match(await legend.innerText(), /Labels: \{NAME\}/);
  });

  it('"hillshade the DEM" as a style: the worker shades the tiles, the legend says so', async () => {
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: ELEV } }] },
      { toolCalls: [{ name: 'style_raster_hillshade', arguments: { layer: 'elev', azimuth: 315, altitude: 45 } }] },
      { text: 'The DEM is shown as shaded relief.' },
    ]);
    await app.askAgent('load the DEM and hillshade it');
    await app.approvePending();
    await app.waitForLayer('elev');
    await app.approvePending();
    await app.waitForMessage('assistant', /shaded relief/);
    await app.setMapView({ center: [6.1, 49.8], zoom: 9 });
    const tiles = (await app.mapSources()).flatMap((s) => s.tiles);
    assert.ok(
      tiles.some((t) => /\/tiles\/[\w-]+\/s-[0-9a-z]+\/\{z\}/.test(t)),
      `styled tile URL: ${tiles}`,
    );
    // Shaded relief: grey everywhere, about 181 on flat ground (1 + 254·sin 45°, as gdaldem), lighter on
    // slopes facing the north-west light and darker on the others.
    const pixels = await app.mapPixelGrid([6.0, 49.7], 0.03, 5);
    for (const px of pixels) assert.ok(Math.abs(px[0] - px[1]) < 10 && Math.abs(px[1] - px[2]) < 10, `grey: ${px}`);
    const greys = pixels.map((px) => px[0]);
    await app.screenshot('st2-hillshade');
    const spread = Math.max(...greys) - Math.min(...greys);
    const mean = greys.reduce((x, y) => x + y, 0) / greys.length;
    assert.ok(spread > 10, `shading varies: ${greys}`);
    assert.ok(mean > 160 && mean < 200, `gentle hills shade around the flat value: mean ${mean}`);
    const legend = page.locator('[data-testid="legend-layer"][data-layer-name="elev"]');
    assert.match(await legend.innerText(), /hillshade/);
  });
});
