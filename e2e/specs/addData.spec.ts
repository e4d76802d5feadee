import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { gisFixtures } from '../support/webHost.js';

const SCOT = ['scot_BNG.shp', 'scot_BNG.shx', 'scot_BNG.dbf', 'scot_BNG.prj'];
const haveFixtures = existsSync(join(gisFixtures, 'nc.gpkg'));

interface AuditRow {
  toolId: string;
  caller: string;
  decision: string;
  decidedBy: string;
  outcome: string;
  args: { path?: string };
}
interface ProjectLayer {
  name: string;
  source: string;
  info: { featureCount: number | null };
}

/** A drop of real files on the map, as a person's drag from the file manager: File objects built from the files' bytes. */
async function dropFiles(page: Page, paths: readonly string[], type: 'dragenter' | 'drop' = 'drop'): Promise<void> {
  const files = paths.map((p) => ({ name: basename(p), base64: readFileSync(p).toString('base64') }));
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: 'application/octet-stream' }));
    }
    return dt;
  }, files);
  const map = page.getByTestId('map');
  if (type === 'drop') await map.dispatchEvent('dragenter', { dataTransfer: transfer });
  await map.dispatchEvent(type === 'drop' ? 'dragover' : 'dragenter', { dataTransfer: transfer });
  if (type === 'drop') await map.dispatchEvent('drop', { dataTransfer: transfer });
}

/** Features of a layer as GDAL counts them in the file itself. */
function ogrFeatureCount(path: string): number {
  const out = execFileSync('ogrinfo', ['-so', '-al', path], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } });
  const m = /Feature Count: (\d+)/.exec(out);
  assert.ok(m, out);
  return Number(m[1]);
}

/**
 * Adding data without the chat (issue #15): the layer panel's Add data with the web host's
 * path field and folder browser (rooted at MAPWRIGHT_BROWSE_ROOT), the recent files, and files
 * dropped on the map (uploaded into the project's outputs folder). A file picked in main's own
 * listing loads without a dialog; a typed path is asked for as unverified interface input.
 */
describe('add data: browse, type, recent files and drag-and-drop', { skip: haveFixtures ? false : 'shared GIS fixtures absent' }, () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mapwright-e2e-browse-')));
  const env: Record<string, string> = { MAPWRIGHT_BROWSE_ROOT: root };
  const session = useAppSession({ env });
  let shared: SharedApp;
  let bridge: BridgeSocket;

  const layers = async () => (await bridge.call<{ layers: ProjectLayer[] }>('project/get')).layers;
  const loads = async () => (await bridge.call<{ entries: AuditRow[] }>('audit/list', { toolId: 'layers.load' })).entries;
  const shot = (name: string) => shared.page.screenshot({ path: `/tmp/adddata-${name}.png` });
  const approvalCount = () => shared.page.getByTestId('approval-dialog').count();

  before(async () => {
    if (!haveFixtures) return;
    copyFileSync(join(gisFixtures, 'nc.gpkg'), join(root, 'nc.gpkg'));
    mkdirSync(join(root, 'shapes'));
    for (const f of SCOT) copyFileSync(join(gisFixtures, f), join(root, 'shapes', f));
    writeFileSync(join(root, '.hidden.gpkg'), '');
    writeFileSync(join(root, 'notes.txt'), 'not data');
    shared = await session.openApp();
    bridge = await BridgeSocket.connect(session.host.url);
  });
  after(() => {
    bridge?.close?.();
    rmSync(root, { recursive: true, force: true });
  });

  it('browses from the browse root and loads a picked file as the person, without a dialog', async () => {
    const { page, app } = shared;
    await page.getByTestId('add-data').click();
    const browser = page.getByTestId('add-data-browser');
    await browser.waitFor();
    await page.locator('[data-testid="add-data-entry"][data-name="nc.gpkg"]').waitFor();
    const entries = await page
      .getByTestId('add-data-entry')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-name')}`));
    assert.deepEqual(entries, ['dir:shapes', 'file:nc.gpkg', 'file:notes.txt'], 'folders first, dotfiles hidden');
    assert.ok(await page.getByTestId('add-data-up').isDisabled(), 'the root has no way up');
    // Into a folder and back up.
    await page.locator('[data-testid="add-data-entry"][data-name="shapes"]').click();
    await page.locator('[data-testid="add-data-entry"][data-name="scot_BNG.shp"]').waitFor();
    await page.getByTestId('add-data-up').click();
    await page.locator('[data-testid="add-data-entry"][data-name="nc.gpkg"]').click();
    assert.equal(await page.getByTestId('add-data-path').inputValue(), join(root, 'nc.gpkg'));
    await shot('1-browser');
    await page.getByTestId('add-data-submit').click();
    await app.waitForLayer('nc');
    assert.equal(await approvalCount(), 0, 'a file from main’s own listing is not asked for');
    await page.getByTestId('add-data-browser').waitFor({ state: 'detached' });
    const [load] = await loads();
    assert.equal(load?.caller, 'user');
    assert.equal(load?.outcome, 'ok');
    assert.equal(load?.decidedBy, 'user');
    assert.equal(load?.args.path, join(root, 'nc.gpkg'));
    await app.waitForMapIdle();
    await shot('2-nc-loaded');
  });

  it('a typed path is asked for as unverified interface input; approved, it loads', async () => {
    const { page, app } = shared;
    await page.getByTestId('add-data').click();
    await page.getByTestId('add-data-path').fill(join(root, 'shapes', 'scot_BNG.shp'));
    await page.getByTestId('add-data-path').press('Enter');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /came from the interface/);
    await shot('3-typed-path-asks');
    await app.approvePending();
    await app.waitForLayer('scot_BNG');
    const [load] = await loads();
    assert.equal(load?.caller, 'user');
    assert.equal(load?.decision, 'approved');
  });

  it('a double-click on a file in the browser loads it without a dialog', async () => {
    const { page, app } = shared;
    await page.getByTestId('add-data').click();
    await page.locator('[data-testid="add-data-entry"][data-name="shapes"]').click();
    await page.locator('[data-testid="add-data-entry"][data-name="scot_BNG.shp"]').dblclick();
    await page.getByTestId('add-data-browser').waitFor({ state: 'detached' });
    await app.waitForLayer('scot_BNG_2');
    assert.equal(await approvalCount(), 0);
    const [load] = await loads();
    assert.equal(load?.args.path, join(root, 'shapes', 'scot_BNG.shp'));
    assert.equal(load?.decidedBy, 'user');
  });

  it('a typed path to a missing file shows main’s error under the field, the text kept', async () => {
    const { page, app } = shared;
    await page.getByTestId('add-data').click();
    await page.getByTestId('add-data-path').fill(join(root, 'missing.gpkg'));
    await page.getByTestId('add-data-submit').click();
    await app.approvePending();
    const error = page.getByTestId('add-data-error');
    await error.waitFor();
    assert.ok((await error.innerText()).trim().length > 0);
    assert.equal(await page.getByTestId('add-data-path').inputValue(), join(root, 'missing.gpkg'));
    await page.getByTestId('add-data-close').click();
  });

  it('lists recent files newest first; a recent file loads again without a dialog', async () => {
    const { page } = shared;
    await page.getByTestId('add-data').click();
    await page.getByTestId('add-data-recent').waitFor();
    const recent = await page.getByTestId('add-data-recent-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    assert.deepEqual(recent, [join(root, 'shapes', 'scot_BNG.shp'), join(root, 'nc.gpkg')]);
    await shot('4-recent');
    const before = (await layers()).length;
    await page.locator(`[data-testid="add-data-recent-item"][data-path="${join(root, 'nc.gpkg')}"]`).click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="layer-item"]').length > n, before);
    assert.equal(await approvalCount(), 0);
    await page.getByTestId('add-data-browser').waitFor({ state: 'detached' });
  });

  it('a real file dropped on the map is uploaded into the outputs folder and loaded from there', async () => {
    const { page, app } = shared;
    await dropFiles(page, [join(gisFixtures, 'countries.fgb')], 'dragenter');
    await page.getByTestId('map-drop-overlay').waitFor();
    await shot('5-drop-overlay');
    await dropFiles(page, [join(gisFixtures, 'countries.fgb')]);
    await app.waitForLayer('countries');
    assert.equal(await page.getByTestId('map-drop-overlay').count(), 0);
    assert.equal(await approvalCount(), 0, 'main’s own copy is not asked for');
    const layer = (await layers()).find((l) => l.name === 'countries')!;
    const imports = join(session.home, 'projects', 'untitled-outputs', 'imports');
    assert.equal(dirname(dirname(layer.source)), realpathSync(imports));
    assert.equal(readFileSync(layer.source).equals(readFileSync(join(gisFixtures, 'countries.fgb'))), true, 'the bytes arrived whole');
    assert.equal(layer.info.featureCount, ogrFeatureCount(layer.source));
    const [load] = await loads();
    assert.equal(load?.caller, 'user');
    await app.waitForMapIdle();
    await shot('6-dropped-countries');
  });

  it('a Shapefile’s four files dropped together land in one folder and load', async () => {
    const { page } = shared;
    const before = (await layers()).length;
    await dropFiles(
      page,
      SCOT.map((f) => join(gisFixtures, f)),
    );
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="layer-item"]').length > n, before);
    const layer = (await layers()).at(-1)!;
    assert.match(layer.name, /^scot_BNG/);
    assert.equal(basename(layer.source), 'scot_BNG.shp');
    assert.deepEqual(readdirSync(dirname(layer.source)).sort(), [...SCOT].sort());
    assert.equal(layer.info.featureCount, ogrFeatureCount(layer.source));
  });

  it('a drop with nothing loadable says so on the map', async () => {
    const { page } = shared;
    await dropFiles(page, [join(root, 'notes.txt')]);
    const error = page.getByTestId('map-drop-error');
    await error.waitFor();
    assert.match(await error.innerText(), /notes\.txt/);
    await shot('7-drop-error');
  });
});
