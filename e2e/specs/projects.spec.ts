import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Page } from 'playwright-core';
import type { ToolResult } from '../../src-shared/tools/toolResult.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { gisFixtures } from '../support/webHost.js';

const haveFixtures = existsSync(join(gisFixtures, 'nc.gpkg'));

interface ProjectLayer {
  id: string;
  name: string;
  source: string;
  style: unknown;
  visible: boolean;
  opacity: number;
}
interface Snapshot {
  project: { name: string; path: string };
  layers: ProjectLayer[];
  view: { center: [number, number]; zoom: number; bearing: number; pitch: number } | null;
  missingLayerIds: string[];
}

const VIEW = { center: [-79.2, 35.6] as [number, number], zoom: 7.4, bearing: 15, pitch: 35 };

/** The view the map shows now (all four parts the project keeps). */
async function mapView(page: Page) {
  return page.evaluate(() => {
    const map = (window as unknown as { __mapwright: { map: MapLibreMap } }).__mapwright.map;
    const c = map.getCenter();
    return { center: [c.lng, c.lat], zoom: map.getZoom(), bearing: map.getBearing(), pitch: map.getPitch() };
  });
}

function assertSameView(actual: { center: number[]; zoom: number; bearing: number; pitch: number }, what: string) {
  assert.ok(
    Math.abs(actual.center[0]! - VIEW.center[0]) < 1e-4 && Math.abs(actual.center[1]! - VIEW.center[1]) < 1e-4,
    `${what}: centre ${actual.center}`,
  );
  assert.ok(Math.abs(actual.zoom - VIEW.zoom) < 1e-3, `${what}: zoom ${actual.zoom}`);
  assert.ok(Math.abs(actual.bearing - VIEW.bearing) < 0.01, `${what}: bearing ${actual.bearing}`);
  assert.ok(Math.abs(actual.pitch - VIEW.pitch) < 0.01, `${what}: pitch ${actual.pitch}`);
}

/**
 * Projects (issue #15) as a person uses them: build a project (two layers, a graduated style,
 * opacity, a tilted view), Save as… into a study folder, start a New project, Open… the saved
 * one from the recent list: the same layers, styles and view. Then the data file moves: the
 * layer shows as missing and "Locate…" points it at the new place.
 */
describe('projects: save as, new, open recent, missing file located', { skip: haveFixtures ? false : 'shared GIS fixtures absent' }, () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mapwright-e2e-projects-')));
  const session = useAppSession({ env: { MAPWRIGHT_BROWSE_ROOT: root } });
  let shared: SharedApp;
  let bridge: BridgeSocket;
  let built: Snapshot;
  const study = join(root, 'study');
  const saved = join(study, 'nc study.mapwright');
  const get = () => bridge.call<Snapshot>('project/get');
  const shot = (name: string) => shared.page.screenshot({ path: `e2e/screenshots/projects-${name}.png` });
  const trigger = (entry: string, params: Record<string, unknown>) => bridge.call<ToolResult>('entries/trigger', { entry, params });

  /** Clicks `action` and waits for the window to load the project main switched to. */
  async function afterSwitch(action: () => Promise<void>, name: string) {
    const { page, app } = shared;
    await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), action()]);
    await page.locator(`[data-testid="project-name"]`, { hasText: name }).waitFor({ timeout: 30_000 });
    await app.waitForMapIdle();
  }

  before(async () => {
    if (!haveFixtures) return;
    mkdirSync(join(study, 'data'), { recursive: true });
    copyFileSync(join(gisFixtures, 'nc.gpkg'), join(study, 'data', 'nc.gpkg'));
    copyFileSync(join(gisFixtures, 'elev.tif'), join(study, 'data', 'elev.tif'));
    shared = await session.openApp();
    bridge = await BridgeSocket.connect(session.host.url);
  });
  after(() => {
    bridge?.close?.();
    rmSync(root, { recursive: true, force: true });
  });

  it('builds a project: two layers, a graduated style, opacity, a tilted view', async () => {
    const { page, app } = shared;
    for (const file of ['elev.tif', 'nc.gpkg']) {
      const loading = trigger('layers.load', { path: join(study, 'data', file) });
      await app.approvePending();
      assert.equal((await loading).ok, true);
    }
    await app.waitForLayer('nc');
    assert.equal((await trigger('style.graduate', { layer: 'nc', field: 'BIR74', method: 'jenks', classes: 5, ramp: 'viridis' })).ok, true);
    assert.equal((await trigger('layers.set_opacity', { layer: 'elev', opacity: 0.6 })).ok, true);
    await app.waitForNextMapIdle(() =>
      page.evaluate((v) => {
        (window as unknown as { __mapwright: { map: MapLibreMap } }).__mapwright.map.jumpTo(v);
      }, VIEW),
    );
    // The view is written a moment after the map rests.
    await waitUntil(async () => (await get()).view !== null, 'the view to be saved');
    built = await get();
    assert.deepEqual(built.view, VIEW);
    assert.equal(built.project.name, 'Untitled project');
    await shot('1-built');
  });

  it('Save as… through the folder browser: the copy opens with the same layers, styles and view', async () => {
    const { page } = shared;
    await page.getByTestId('project-save-as').click();
    const dialog = page.getByTestId('project-dialog');
    await dialog.waitFor();
    await dialog.locator('[data-testid="add-data-entry"][data-name="study"]').click();
    await page.waitForFunction(
      (dir) => (document.querySelector('[data-testid="project-path"]') as HTMLInputElement)?.value.startsWith(dir),
      study,
    );
    await page.getByTestId('project-path').fill(saved);
    await shot('2-save-as');
    await afterSwitch(() => page.getByTestId('project-submit').click(), 'nc study');
    const copy = await get();
    assert.equal(copy.project.path, saved);
    assert.deepEqual(
      copy.layers.map((l) => [l.name, l.source, l.style, l.opacity, l.visible]),
      built.layers.map((l) => [l.name, l.source, l.style, l.opacity, l.visible]),
    );
    assertSameView(await mapView(page), 'the saved copy');
  });

  it('New starts an empty project; Open… from the recent list brings the saved one back as it was', async () => {
    const { page } = shared;
    await afterSwitch(() => page.getByTestId('project-new').click(), 'Untitled');
    const fresh = await get();
    assert.deepEqual(fresh.layers, []);
    assert.notEqual(fresh.project.path, saved);
    assert.equal(await page.locator('[data-testid="layer-item"]').count(), 0);

    await page.getByTestId('project-open').click();
    const recent = page.locator(`[data-testid="project-recent-item"][data-path="${saved}"]`);
    await recent.waitFor();
    await shot('3-open-recent');
    await afterSwitch(() => recent.click(), 'nc study');
    const reopened = await get();
    assert.deepEqual(
      reopened.layers.map((l) => [l.name, l.source, l.style, l.opacity]),
      built.layers.map((l) => [l.name, l.source, l.style, l.opacity]),
    );
    assertSameView(await mapView(page), 'the reopened project');
    // The graduated style is what the map draws: a step expression over BIR74 on the nc layer.
    const fills = await page.evaluate(() => {
      const map = (window as unknown as { __mapwright: { map: MapLibreMap } }).__mapwright.map;
      return map
        .getStyle()
        .layers.filter((l) => l.type === 'fill')
        .map((l) => JSON.stringify(map.getPaintProperty(l.id, 'fill-color')));
    });
    assert.ok(
      fills.some((f) => /BIR74/.test(f)),
      `a fill coloured by BIR74 among ${fills.join(' | ')}`,
    );
    assert.deepEqual(await page.getByTestId('layer-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer-name'))), [
      'nc',
      'elev',
    ]);
    await shot('4-reopened');
  });

  it('a moved data file shows as missing; "Locate…" points the layer at it again', async () => {
    const { page, app } = shared;
    mkdirSync(join(study, 'moved'));
    renameSync(join(study, 'data', 'nc.gpkg'), join(study, 'moved', 'nc.gpkg'));
    await page.getByTestId('project-open').click();
    await page.getByTestId('project-path').fill(saved);
    await afterSwitch(() => page.getByTestId('project-submit').click(), 'nc study');
    const item = page.locator('[data-testid="layer-item"][data-layer-name="nc"]');
    await item.getByTestId('layer-missing').waitFor();
    assert.equal(await page.locator('[data-testid="layer-item"][data-layer-name="elev"] [data-testid="layer-missing"]').count(), 0);
    await shot('5-missing');
    await item.getByTestId('layer-locate').click();
    const dialog = page.getByTestId('locate-dialog');
    await dialog.locator('[data-testid="add-data-entry"][data-name="study"]').click();
    await dialog.locator('[data-testid="add-data-entry"][data-name="moved"]').click();
    await dialog.locator('[data-testid="add-data-entry"][data-name="nc.gpkg"]').click();
    await app.waitForNextMapIdle(() => page.getByTestId('locate-submit').click());
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await item.getByTestId('layer-missing').count(), 0);
    assert.equal(await item.getByTestId('layer-display-problem').count(), 0, 'the map draws the layer from its new place');
    const located = await get();
    const nc = located.layers.find((l) => l.name === 'nc')!;
    assert.equal(nc.source, join(study, 'moved', 'nc.gpkg'));
    assert.deepEqual(nc.style, built.layers.find((l) => l.name === 'nc')!.style, 'the style stays');
    assert.equal(
      page.getByTestId('approval-dialog') && (await page.getByTestId('approval-dialog').count()),
      0,
      'a file from the browser is not asked for',
    );
    await shot('6-located');
  });
});

async function waitUntil(check: () => Promise<boolean>, what: string, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
