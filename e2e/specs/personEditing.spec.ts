import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { gisFixtures } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping person editing e2e: ${NC} is absent`);

interface ProjectLayer {
  id: string;
  name: string;
  source: string;
  sublayer: string | null;
  editing?: { originalSource: string; originalSublayer: string | null; revision: number };
}
interface AuditRow {
  toolId: string;
  caller: string;
  decision: string;
  outcome: string;
  args: unknown;
}
interface ToolResult {
  ok: boolean;
  error?: { code: string; message: string };
}

/** Well inside one county (Chatham), away from its borders. */
const IN_A_COUNTY: [number, number] = [-79.25, 35.7];

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** GDAL's own answer, read-only, on a file the app wrote. */
function ogr(args: string[]): string {
  return execFileSync('ogrinfo', ['-ro', '-q', ...args], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } });
}
/** The one value of a one-row `SELECT … AS v` on the layer's working copy. */
function sqlValue(layer: ProjectLayer, select: string): string {
  const table = layer.sublayer ?? 'nc.gpkg';
  const text = ogr(['-sql', select.replace('$T', `"${table}"`), layer.source]);
  const m = /\bv \(\w+\) = (.*)/.exec(text);
  assert.ok(m, `no value in ogrinfo's answer:\n${text}`);
  return m[1]!.trim();
}
const featureCount = (layer: ProjectLayer) => Number(sqlValue(layer, 'SELECT count(*) AS v FROM $T'));

/** Polls `read` until `ok` holds (GDAL answers from the file; the app writes it asynchronously). */
async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, what: string, timeout = 20_000): Promise<T> {
  const end = Date.now() + timeout;
  let last: T = await read();
  while (!ok(last)) {
    if (Date.now() > end) assert.fail(`${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 150));
    last = await read();
  }
  return last;
}

/** Screenshots for a person to look at: /tmp/edit-NAME.png. */
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/edit-${name}.png` });

/**
 * The person's editing in the GUI (issue #14), in Chromium against the web host: a copy of
 * nc.gpkg is loaded, made editable from the layer panel, a cell is changed in the attribute
 * table, a polygon is drawn with the map's toolbar and undone — every change through main's
 * dispatcher as the user, into the working copy, never the original file.
 */
describe('person editing in Chromium (a copy of nc.gpkg)', { skip: !haveFixtures }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-editing-' });
  let { page, app, table } = {} as SharedApp;
  let bridge: BridgeSocket;
  let folder: string;
  let original: string;
  let originalHash: string;
  /** Every URL the page asked for: the map's data requests name the layer's revision. */
  const requested: string[] = [];

  const layer = async (): Promise<ProjectLayer> => {
    const { layers } = await bridge.call<{ layers: ProjectLayer[] }>('project/get');
    const found = layers.find((l) => l.name === 'nc');
    assert.ok(found, 'the nc layer is in the project');
    return found;
  };
  const audit = async (toolId: string) => (await bridge.call<{ entries: AuditRow[] }>('audit/list', { toolId })).entries;

  before(async () => {
    ({ page, app, table } = await session.openApp({ beforeOpen: (p) => p.on('request', (r) => void requested.push(r.url())) }));
    folder = mkdtempSync(join(tmpdir(), 'mapwright-e2e-edit-data-'));
    original = join(folder, 'nc.gpkg');
    copyFileSync(NC, original);
    originalHash = sha256(original);
    bridge = await BridgeSocket.connect(session.host.url);
    // A path from the interface is asked for: the dialog shows in the page, the person approves.
    const loading = bridge.call<ToolResult>('entries/trigger', { entry: 'layers.load', params: { path: original } });
    await app.approvePending();
    assert.equal((await loading).ok, true, JSON.stringify(await loading));
    await app.waitForLayer('nc');
    await app.waitForMapIdle();
  });
  after(() => {
    bridge?.close?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('"Edit" in the layer panel makes a working copy: badge, toolbar with the polygon tools only', async () => {
    const item = page.locator('[data-testid="layer-item"][data-layer-name="nc"]');
    await item.getByTestId('layer-edit-toggle').click();
    await item.getByTestId('layer-editing-badge').waitFor({ timeout: 20_000 });
    const toolbar = page.getByTestId('edit-toolbar');
    await toolbar.waitFor();
    assert.equal(await toolbar.getByTestId('edit-draw-polygon').count(), 1);
    assert.equal(await toolbar.getByTestId('edit-draw-point').count(), 0, 'a polygon layer offers no point tool');
    assert.equal(await toolbar.getByTestId('edit-draw-line').count(), 0, 'nor a line tool');
    const edited = await layer();
    assert.ok(edited.editing, 'the layer is being edited');
    assert.equal(edited.editing.originalSource, original);
    assert.notEqual(edited.source, original, 'the layer shows its working copy');
    assert.ok(existsSync(edited.source), `the working copy exists (${edited.source})`);
    assert.equal(featureCount(edited), 100);
    assert.equal(sha256(original), originalHash);
  });

  it('a double-clicked cell takes a typed value: text and numbers land in the working copy, the original is untouched', async () => {
    await table.open('nc');
    await table.waitForCount(/100 rows/);
    const first = (await table.rows())[0]!;
    const cell = (field: string) => page.locator(`[data-testid="attribute-row"][data-fid="${first.fid}"] [data-field="${field}"]`);

    await cell('NAME').dblclick();
    const editor = page.getByTestId('attribute-cell-editor');
    await editor.fill('Edited County');
    await editor.press('Enter');
    await page.waitForFunction(
      (fid) =>
        document.querySelector(`[data-testid="attribute-row"][data-fid="${fid}"] [data-field="NAME"]`)?.textContent === 'Edited County',
      first.fid,
      { timeout: 20_000 },
    );
    const edited = await layer();
    assert.equal(sqlValue(edited, `SELECT NAME AS v FROM $T WHERE fid = ${first.fid}`), 'Edited County');

    // A number field gets a number; a word there is refused before anything is sent.
    await cell('BIR74').dblclick();
    await editor.fill('abc');
    await editor.press('Enter');
    const error = page.getByTestId('attribute-cell-error');
    await error.waitFor();
    assert.match(await error.innerText(), /not a number/);
    await editor.fill('12345');
    await editor.press('Enter');
    await editor.waitFor({ state: 'detached', timeout: 20_000 });
    await until(
      async () => sqlValue(await layer(), `SELECT BIR74 AS v FROM $T WHERE fid = ${first.fid}`),
      (v) => Number(v) === 12345,
      'BIR74 becomes 12345 in the working copy',
    );
    await page.waitForFunction(
      (fid) => document.querySelector(`[data-testid="attribute-row"][data-fid="${fid}"] [data-field="BIR74"]`)?.textContent === '12345',
      first.fid,
    );

    // Escape leaves a cell as it was.
    await cell('NAME').dblclick();
    await editor.fill('Not this');
    await editor.press('Escape');
    await editor.waitFor({ state: 'detached' });
    assert.equal(await cell('NAME').innerText(), 'Edited County');

    const rows = await audit('edit.update_features');
    assert.ok(rows.length >= 2 && rows.every((r) => r.caller === 'user' && r.outcome === 'ok'), JSON.stringify(rows));
    assert.equal(sha256(original), originalHash, 'the original file is unchanged');
    await shot(page, 'cell');
  });

  it('a polygon drawn on the map is added (+1 feature, audited as the user); Undo takes it out again', async () => {
    await table.close();
    await app.waitForMapIdle();
    const before = await layer();
    const count = featureCount(before);
    await page.getByTestId('edit-draw-polygon').click();
    assert.equal(await page.getByTestId('edit-toolbar').getAttribute('data-tool'), 'polygon');

    // A square over the Atlantic, off the coast, where no county lies.
    const ring: [number, number][] = [
      [-76.2, 34.0],
      [-75.6, 34.0],
      [-75.6, 34.5],
      [-76.2, 34.5],
    ];
    for (const [lon, lat] of ring) {
      const p = await table.pagePoint(lon, lat);
      await page.mouse.click(p.x, p.y);
      await page.waitForTimeout(150);
    }
    await shot(page, 'drawing');
    // Clicking the first vertex again closes the ring and finishes the shape.
    const start = await table.pagePoint(...ring[0]!);
    await page.mouse.click(start.x, start.y);

    // The copy is written first, then main records the change (a new revision) and audits the call.
    const added = await until(
      layer,
      (l) => featureCount(l) === count + 1 && (l.editing?.revision ?? 0) > (before.editing?.revision ?? 0),
      'the working copy has one more feature, at a new revision',
    );
    const rows = await until(
      () => audit('edit.add_features'),
      (r) => r.length > 0,
      'the call is audited',
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.caller, 'user');
    assert.equal(rows[0]!.outcome, 'ok');
    const newest = Number(sqlValue(added, 'SELECT max(fid) AS v FROM $T'));
    const bbox = sqlValue(
      added,
      `SELECT ST_MinX(geom) || ' ' || ST_MinY(geom) || ' ' || ST_MaxX(geom) || ' ' || ST_MaxY(geom) AS v FROM $T WHERE fid = ${newest}`,
    );
    assert.ok(
      bbox.split(' ').every((v) => Number.isFinite(Number(v))),
      `the new feature has a geometry (${bbox})`,
    );
    assert.equal(await page.getByTestId('edit-error').count(), 0);
    await app.waitForMapIdle();
    await shot(page, 'drawn');

    // The map now draws the new feature from the layer's own data, fetched at the new revision.
    const wanted = `/data/layers/${added.id}.r${added.editing!.revision}.geojson?`;
    await until(
      () => requested.some((u) => u.includes(wanted)),
      (seen) => seen,
      `the map fetched ${wanted}`,
    );

    await app.undo();
    await until(layer, (l) => featureCount(l) === count, 'Undo takes the feature out again');
    assert.equal(sha256(original), originalHash, 'the original file is still unchanged');
    await app.waitForMapIdle();
    await shot(page, 'undone');
  });

  it('reshape: a vertex of the selected county dragged on the map is saved as its new geometry; Undo puts it back', async () => {
    // The polygon tool, pressed again, is put down: clicks select again.
    await page.getByTestId('edit-draw-polygon').click();
    assert.equal(await page.getByTestId('edit-toolbar').getAttribute('data-tool'), 'idle');
    const sections = await table.identifyAt(...IN_A_COUNTY);
    const fid = sections[0]!.features[0]!.fid;
    await table.waitForHighlight([fid]);
    const current = await layer();
    const extentOf = () =>
      sqlValue(
        current,
        `SELECT ST_MinX(geom) || ' ' || ST_MaxX(geom) || ' ' || ST_MinY(geom) || ' ' || ST_MaxY(geom) AS v FROM $T WHERE fid = ${fid}`,
      );
    const extentBefore = extentOf();

    await page.getByTestId('edit-reshape').click();
    assert.equal(await page.getByTestId('edit-toolbar').getAttribute('data-tool'), 'reshape');
    // The county's westernmost vertex, dragged 60 px further west: the extent must grow that way.
    const { features } = await bridge.call<{ features: { geometry: { type: string; coordinates: number[][][][] } }[] }>('layers/features', {
      layerId: current.id,
      fids: [fid],
    });
    const ring = features[0]!.geometry.coordinates[0]![0]!;
    const west = ring.reduce((a, b) => (b[0]! < a[0]! ? b : a));
    await page.waitForTimeout(300);
    const p = await table.pagePoint(west[0]!, west[1]!);
    await shot(page, 'reshape-before');
    const updatesBefore = (await audit('edit.update_features')).length;
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x - 30, p.y, { steps: 5 });
    await page.mouse.move(p.x - 60, p.y, { steps: 5 });
    await page.mouse.up();
    await until(extentOf, (e) => e !== extentBefore, 'the reshaped county is saved in the working copy');
    const [minX] = extentOf().split(' ').map(Number);
    assert.ok(minX! < Number(extentBefore.split(' ')[0]), `the county reaches further west (${extentBefore} → ${extentOf()})`);
    const rows = await until(
      () => audit('edit.update_features'),
      (r) => r.length > updatesBefore,
      'the reshape is audited',
    );
    const last = rows[0]!;
    assert.equal(last.caller, 'user');
    assert.ok(JSON.stringify(last.args).includes('"geometry"'), 'the newest update sent a geometry');
    await app.waitForMapIdle();
    await shot(page, 'reshaped');

    await app.undo();
    await until(extentOf, (e) => e === extentBefore, 'Undo puts the county back as it was');
    await page.getByTestId('edit-reshape').click();
    assert.equal(await page.getByTestId('edit-toolbar').getAttribute('data-tool'), 'idle');
  });

  it('Done leaves the toolbar; the layer stays edited (badge)', async () => {
    await page.getByTestId('edit-finish').click();
    await page.getByTestId('edit-toolbar').waitFor({ state: 'detached' });
    await page.locator('[data-testid="layer-item"][data-layer-name="nc"]').getByTestId('layer-editing-badge').waitFor();
  });
});
