import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { gisFixtures } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
/** The layer inside the GeoPackage (the app names it `nc`). */
const NC_LAYER = 'nc.gpkg';
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping attribute table e2e: ${NC} is absent`);
/** Well inside one county, away from its borders. */
const IN_A_COUNTY: [number, number] = [-79.25, 35.7];

/** GDAL's own answers, to compare the app against. */
function ogr(args: string[]): string {
  return execFileSync('ogrinfo', ['-ro', '-q', ...args], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } });
}
const sqlValue = (sql: string, field: string) => new RegExp(`${field} \\(\\w+\\) = (.*)`).exec(ogr(['-sql', sql, NC]))![1]!.trim();
/** The features whose geometry contains or touches a small box around a point (degrees; the layer is NAD27). */
function featuresAt([lon, lat]: [number, number], half = 0.0001): { fid: number; name: string }[] {
  const text = ogr(['-spat', String(lon - half), String(lat - half), String(lon + half), String(lat + half), NC, NC_LAYER]);
  return [...text.matchAll(/OGRFeature\([^)]*\):(\d+)[\s\S]*?NAME \(String\) = ([^\n]*)/g)].map((m) => ({
    fid: Number(m[1]),
    name: m[2]!.trim(),
  }));
}

describe('attribute table, selection and identify in Chromium (nc.gpkg)', { skip: !haveFixtures }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-attributes-' });
  let { page, app, model, table } = {} as SharedApp;

  before(async () => {
    ({ page, app, model, table } = await session.openApp());
    model.script([{ toolCalls: [{ name: 'layers_load', arguments: { path: NC } }] }, { text: 'Loaded the counties.' }]);
    await app.askAgent('load the NC counties');
    await app.approvePending();
    await app.waitForLayer('nc');
    await app.waitForMessage('assistant', /Loaded the counties/);
    await app.waitForMapIdle();
  });

  it('opens on the layer: rows with their feature ids, the row count, a scrollable body', async () => {
    await table.open('nc');
    assert.equal(await table.waitForCount(/rows/), '100 rows');
    const rows = await table.rows();
    assert.ok(rows.length > 5 && rows.length < 100, `only the rows in view are rendered (${rows.length})`);
    assert.ok(
      rows.every((r) => Number.isInteger(r.fid)),
      'every row has data-fid',
    );
    // Row 0 without a sort is the layer's first feature.
    assert.equal(rows[0]!.cells.NAME, sqlValue(`SELECT NAME FROM "${NC_LAYER}" ORDER BY fid LIMIT 1`, 'NAME'));
    await table.scrollToIndex(90);
    const after = await table.rows();
    assert.ok(
      after.some((r) => r.index === 99),
      'the last row is reachable',
    );
    const wide = await table.columnWidth('NAME');
    await table.resizeColumn('NAME', 80);
    const wider = await table.columnWidth('NAME');
    assert.ok(Math.abs(wider - wide - 80) <= 2, `dragging the header edge resizes the column (${wide} → ${wider})`);
    await app.screenshot('attr-1-table');
  });

  it('sorts by a column header: ascending, descending, none — as GDAL orders them', async () => {
    await table.sortBy('NAME', 'asc');
    assert.equal((await table.rows())[0]!.cells.NAME, sqlValue(`SELECT NAME FROM "${NC_LAYER}" ORDER BY NAME LIMIT 1`, 'NAME'));
    await table.sortBy('NAME', 'desc');
    assert.equal((await table.rows())[0]!.cells.NAME, sqlValue(`SELECT NAME FROM "${NC_LAYER}" ORDER BY NAME DESC LIMIT 1`, 'NAME'));
    await table.sortBy('NAME', 'none');
  });

  it('filters on Enter with GDAL’s count, and shows a bad filter next to the field', async () => {
    const expected = Number(sqlValue(`SELECT count(*) AS n FROM "${NC_LAYER}" WHERE AREA > 0.2`, 'n'));
    assert.ok(expected > 0 && expected < 100);
    await table.filter('AREA > 0.2');
    assert.equal(await table.waitForCount(/match/), `${expected} of 100 match`);
    const rows = await table.rows();
    assert.equal(rows.length, expected);
    assert.ok(rows.every((r) => Number(r.cells.AREA) > 0.2));
    await table.filter('NO_SUCH_FIELD > 1');
    assert.ok((await table.filterError()).length > 0, 'the error is shown');
    assert.equal(await table.count(), `${expected} of 100 match`, 'the last good filter stays applied');
    await app.screenshot('attr-2-filtered');
    await table.filter('');
    await table.waitForCount(/^100 rows$/);
  });

  it('a row click selects it: highlighted in the table and drawn on the map; ctrl-click adds', async () => {
    const [first, , third] = await table.rows();
    await table.clickRow(first!.fid);
    await table.waitForHighlight([first!.fid]);
    assert.equal(await table.selectedCount(), 1);
    await table.clickRow(third!.fid, ['Control']);
    await table.waitForHighlight([first!.fid, third!.fid]);
    const selected = (await table.rows()).filter((r) => r.selected).map((r) => r.fid);
    assert.deepEqual(
      selected.sort((a, b) => a - b),
      [first!.fid, third!.fid].sort((a, b) => a - b),
    );
  });

  it('a plain click on the map identifies the county GDAL finds there and selects it', async () => {
    const [county] = featuresAt(IN_A_COUNTY);
    assert.ok(county, 'GDAL finds a county at the point');
    const sections = await table.identifyAt(...IN_A_COUNTY);
    assert.equal(sections.length, 1);
    assert.equal(sections[0]!.layerName, 'nc');
    const feature = sections[0]!.features[0]!;
    assert.equal(feature.fid, county.fid);
    assert.equal(feature.attributes.NAME, county.name);
    assert.equal(Object.keys(feature.attributes).length, 14, 'every attribute, read from the source');
    await table.waitForHighlight([county.fid]);
    // The table scrolled the selected row into view.
    await page.locator(`[data-testid="attribute-row"][data-fid="${county.fid}"][aria-selected="true"]`).waitFor();
    await app.screenshot('attr-3-identify');
  });

  it('map.selection tells the model what is selected', async () => {
    const [county] = featuresAt(IN_A_COUNTY);
    model.reset();
    model.script([{ toolCalls: [{ name: 'map_selection', arguments: {} }] }, { text: 'You selected one county.' }]);
    await app.askAgent('what are these features?');
    await app.waitForMessage('assistant', /You selected one county/);
    const result = JSON.parse(String(model.requests[1]!.messages.at(-1)!.content)) as { ok: boolean; data: Record<string, unknown> };
    assert.equal(result.ok, true);
    assert.deepEqual(result.data, { layerId: result.data.layerId, layerName: 'nc', count: 1, fids: [county!.fid], capped: false });
  });

  it('shift-drag selects the counties in a box (the map does not box-zoom); Escape clears', async () => {
    await page.keyboard.press('Escape'); // closes the identify popup and clears
    await page.getByTestId('identify-popup').waitFor({ state: 'detached' });
    const { zoom } = await app.mapView();
    const from: [number, number] = [-79.6, 36.0];
    const to: [number, number] = [-78.9, 35.5];
    await table.boxSelect(from, to);
    const count = await table.waitForSelectedMoreThan(1);
    const gdal = featuresAt([(from[0] + to[0]) / 2, (from[1] + to[1]) / 2], 0.35).length;
    assert.ok(Math.abs(count - gdal) <= 2, `box selection ${count} vs GDAL's ${gdal} counties in that box`);
    assert.equal((await app.mapView()).zoom, zoom, 'no box zoom');
    assert.equal((await table.waitForHighlightCount(count)).length, count);
    await app.screenshot('attr-4-box-selection');
    // Zoom to selection fits the selected counties: the view closes in on the box.
    await table.zoomToSelection();
    const {
      center: [lng, lat],
    } = await app.waitForMapView((view) => view.zoom > zoom + 1);
    assert.ok(
      lng > from[0] - 0.3 && lng < to[0] + 0.3 && lat > to[1] - 0.3 && lat < from[1] + 0.3,
      `centred on the selection: ${JSON.stringify({ lng, lat })}`,
    );
    await page.keyboard.press('Escape');
    await table.waitForHighlight([]);
    assert.equal(await table.selectedCount(), 0);
  });

  it('closes, and the selection goes with a removed layer', async () => {
    await table.clickRow((await table.rows())[0]!.fid);
    assert.equal(await table.selectedCount(), 1);
    await table.close();
    await app.removeLayer('nc');
    await table.waitForHighlight([]);
  });
});
