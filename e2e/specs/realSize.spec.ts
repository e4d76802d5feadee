import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PNG } from 'pngjs';
import { sampleRamp } from '../../src-shared/style/colourRamps.js';
import { PALETTE } from '../../src-shared/style/styleModel.js';
import { colourDistance, pixelOf } from '../support/appDriver.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { makePointsCsv, makePointsGpkg } from '../support/bigData.js';

/**
 * Real-size data in Chromium, on data the set-up generates with GDAL (e2e/support/bigData.ts):
 * a million points in a GeoPackage drawn from vector tiles, styled over the whole layer, its
 * attribute table scrolled to row 900,000 and a row selected on the map; four million points
 * from a CSV (no index: the app builds one in its cache, with progress) displayed instead of
 * failing as the whole-GeoJSON path did.
 */

/** How many pixels lie within `tolerance` of a colour. */
function countNear(png: PNG, hex: string, tolerance = 24): number {
  const want = [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4)
    if (colourDistance([png.data[i]!, png.data[i + 1]!, png.data[i + 2]!], want) < tolerance) n++;
  return n;
}

function ogrinfo(args: string[]): string {
  return execFileSync('ogrinfo', ['-ro', '-q', ...args], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } });
}

/** GDAL's reading of one feature: its id, `value` and coordinates. */
function gdalFeature(file: string, args: string[]): { fid: number; value: number; lon: number; lat: number } {
  const text = ogrinfo([...args, file]);
  const fid = /OGRFeature\([^)]*\):(\d+)/.exec(text);
  const value = /value \(Real\) = (\S+)/.exec(text);
  const point = /POINT \((\S+) (\S+)\)/.exec(text);
  assert.ok(fid && value && point, `GDAL read: ${text}`);
  return { fid: Number(fid[1]), value: Number(value[1]), lon: Number(point[1]), lat: Number(point[2]) };
}

function gdalCat(file: string, fid: number): string {
  return /cat \(String\) = (.*)/.exec(ogrinfo(['-fid', String(fid), file, 'points']))![1]!.trim();
}

describe('real-size data in Chromium: 1M and 4M generated points', () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-realsize-' });
  let dir: string;
  let million: string;
  let fourMillion: string;
  let { page, app, model, table } = {} as SharedApp;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mapwright-e2e-bigdata-'));
    million = join(dir, 'million.gpkg');
    fourMillion = join(dir, 'four_million.csv');
    await makePointsGpkg(million, 1_000_000);
    await makePointsCsv(fourMillion, 4_000_000);
    ({ page, app, model, table } = await session.openApp());
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('1,000,000 points: loaded, drawn from vector tiles, the limits stated', async () => {
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: million, name: 'million' } }] },
      { text: 'Loaded a million points.' },
    ]);
    await app.askAgent('load the million points');
    await app.approvePending();
    await app.waitForLayer('million');
    await app.waitForMessage('assistant', /Loaded a million points/);
    await app.waitForMapIdle();

    const source = (await app.mapSources()).find((s) => s.id.startsWith('src-'));
    assert.equal(source?.type, 'vector', 'a large layer goes to the map as vector tiles');
    assert.match(source!.tiles[0]!, /\/tiles\/[\w-]+\/v-[0-9a-z]+\/\{z\}\/\{x\}\/\{y\}\.pbf/);
    assert.ok((await app.renderedFeatureCount('vector')) > 1000, 'thousands of points are drawn');
    // Painted: the layer's colour (the first of the palette) covers many pixels of the map.
    const painted = countNear(await app.mapImage(), PALETTE[0]!);
    assert.ok(painted > 5000, `pixels in the layer colour: ${painted}`);
    await app.screenshot('rs1-million-points');

    // Honest limits: the panel and the model are told the map simplifies when zoomed out.
    const note = page.locator('[data-testid="layer-item"][data-layer-name="million"] [data-testid="layer-display-note"]');
    assert.match((await note.getAttribute('title')) ?? '', /vector tiles.*at most 9,216 features/);
    // The model read the same in the tool result (the last request carries it).
    assert.match(JSON.stringify(model.requests.at(-1)), /Drawn as vector tiles/);
  });

  it('a graduated style is classified over the whole layer and drawn on the tiles', async () => {
    model.script([
      {
        toolCalls: [
          { name: 'style_graduate', arguments: { layer: 'million', field: 'value', method: 'quantile', classes: 5, ramp: 'viridis' } },
        ],
      },
      { text: 'Coloured by value.' },
    ]);
    await app.askAgent('colour the points by value in 5 quantile classes');
    const dialog = await app.waitForApproval();
    // Quantiles over all 1,000,000 values: 200,000 in each class, not a count of what is on screen.
    assert.match(dialog.text.replace(/[\s,]/g, ''), /\(200000\)/);
    await app.waitForNextMapIdle(async () => {
      await app.approvePending();
      await app.waitForMessage('assistant', /Coloured by value/);
    });
    const png = await app.mapImage();
    const ramp = sampleRamp('viridis', 5);
    const present = ramp.map((c) => countNear(png, c, 30));
    assert.ok(present.filter((n) => n > 200).length >= 4, `class colours on the map: ${present.join(', ')}`);
    await app.screenshot('rs2-million-graduated');
  });

  it('the attribute table opens on 1,000,000 rows; row 900,000 selected → that feature highlighted', async () => {
    await table.open('million');
    assert.equal(await table.waitForCount(/rows/), '1,000,000 rows');
    await table.scrollToIndex(900_000);
    const row = (await table.rows()).find((r) => r.index === 900_000)!;
    assert.ok(row, 'row 900,000 is rendered');
    // The same row as GDAL reads it: the 900,001st feature, with the same value.
    const expected = gdalFeature(million, ['-sql', 'SELECT * FROM points ORDER BY fid LIMIT 1 OFFSET 900000']);
    assert.equal(row.fid, expected.fid);
    assert.equal(Number(row.cells.value), expected.value);
    await table.clickRow(row.fid);
    await table.waitForHighlight([row.fid]);
    // Zoom to it and see the highlight colour drawn where the feature is.
    await app.waitForNextMapIdle(() => table.zoomToSelection());
    const { lon, lat } = expected;
    const png = await app.mapImage();
    const at = await app.mapPoint(lon, lat);
    let best = Infinity;
    for (let dy = -3; dy <= 3; dy++)
      for (let dx = -3; dx <= 3; dx++) best = Math.min(best, colourDistance(pixelOf(png, at.x + dx, at.y + dy), [0xff, 0x1f, 0xd2]));
    assert.ok(best < 60, `the selection colour at the feature (${lon}, ${lat}): distance ${best}`);
    await app.screenshot('rs3-row-900000-selected');
    await table.close();

    // Identify on the tiled layer: a click on the point shows GDAL's values for that feature.
    const sections = await table.identifyAt(lon, lat);
    const hit = sections.find((s) => s.layerName.includes('million'))?.features.find((f) => f.fid === row.fid);
    assert.ok(hit, `identify finds feature ${row.fid}: ${JSON.stringify(sections)}`);
    assert.equal(Number(hit.attributes.value), expected.value);
    assert.equal(hit.attributes.cat, gdalCat(million, row.fid));
    await app.screenshot('rs3b-identify-tiled-point');
  });

  it('4,000,000 points from a CSV: indexed once with progress, then displayed instead of failing', async () => {
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: fourMillion, name: 'four_million' } }] },
      { text: 'Loaded four million points.' },
    ]);
    await app.askAgent('load the four million points');
    await app.approvePending();
    // Building the index shows a progress bar on the card.
    await page.getByTestId('tool-card-progress').first().waitFor({ timeout: 120_000 });
    await app.waitForMessage('assistant', /Loaded four million points/, 600_000);
    await app.waitForLayer('four_million');
    // Only the new layer on the map, seen whole (the view is still on the point selected above).
    await app.setLayerVisible('million', false);
    await app.zoomToLayer('four_million');
    await app.waitForRenderedFeatures('vector', 2000, 60_000);
    const problems = await page.getByTestId('layer-display-problem').count();
    assert.equal(problems, 0, 'no layer reports a display problem');
    await app.screenshot('rs4-four-million');
  });
});
