import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { gisFixtures } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping style panel e2e: ${NC} is absent`);

interface ProjectLayer {
  id: string;
  name: string;
  opacity: number;
  style: { type: string; field?: string; fill?: string; colours?: string[]; labels?: { text: string } };
}
interface AuditRow {
  toolId: string;
  caller: string;
  outcome: string;
}
interface ToolResult {
  ok: boolean;
}

/** Well inside one county (Chatham), away from its borders. */
const IN_A_COUNTY: [number, number] = [-79.25, 35.7];

/** Screenshots for a person to look at: /tmp/style-NAME.png. */
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/style-${name}.png` });

/**
 * The style panel (issue #15) in Chromium against the web host: nc.gpkg is loaded as the person,
 * then coloured, classified, categorized, made half transparent and labelled from the panel —
 * each an audited, undoable call of the same tool the model has, run as the user — with the map
 * and the legend following.
 */
describe('the style panel in Chromium (nc.gpkg)', { skip: !haveFixtures }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-style-panel-' });
  let { page, app } = {} as SharedApp;
  let bridge: BridgeSocket;
  let panel: Locator;

  const layer = async (): Promise<ProjectLayer> => {
    const { layers } = await bridge.call<{ layers: ProjectLayer[] }>('project/get');
    const found = layers.find((l) => l.name === 'nc');
    assert.ok(found, 'the nc layer is in the project');
    return found;
  };
  const legend = () => page.locator('[data-testid="legend-layer"][data-layer-name="nc"]');
  const swatches = () =>
    legend()
      .getByTestId('legend-swatch')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-colour')));
  /** Waits until the project's nc layer passes `ok` (main saves, then pushes layers/changed). */
  async function until(ok: (l: ProjectLayer) => boolean, what: string): Promise<ProjectLayer> {
    const end = Date.now() + 20_000;
    for (;;) {
      const l = await layer();
      if (ok(l)) return l;
      if (Date.now() > end) assert.fail(`${what} (last: ${JSON.stringify(l)})`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  async function apply(): Promise<void> {
    await panel.getByTestId('style-apply').click();
    await page.waitForFunction(() => !(document.querySelector('[data-testid="style-apply"]') as HTMLButtonElement | null)?.disabled);
    assert.equal(await panel.getByTestId('style-error').count(), 0, 'no refusal');
  }

  before(async () => {
    ({ page, app } = await session.openApp());
    bridge = await BridgeSocket.connect(session.host.url);
    // A path from the interface is asked for: the dialog shows in the page, the person approves.
    const loading = bridge.call<ToolResult>('entries/trigger', { entry: 'layers.load', params: { path: NC } });
    await app.approvePending();
    assert.equal((await loading).ok, true, JSON.stringify(await loading));
    await app.waitForLayer('nc');
    await app.waitForMapIdle();
  });
  after(() => bridge?.close?.());

  it('"Style" on the layer opens the panel on its current style', async () => {
    await page.locator('[data-testid="layer-item"][data-layer-name="nc"]').getByTestId('layer-style-open').click();
    panel = page.getByTestId('style-panel');
    await panel.waitFor();
    assert.equal(await panel.getAttribute('data-layer-name'), 'nc');
    assert.equal(await panel.getByTestId('style-kind').inputValue(), 'simple');
    const current = await layer();
    assert.equal(await panel.getByTestId('style-color').inputValue(), current.style.fill);
    assert.equal(await panel.getByTestId('style-label-field').inputValue(), '', 'no labels yet');
  });

  it('single colour #00ff00: the counties turn green, the legend swatch too', async () => {
    await panel.getByTestId('style-color').fill('#00ff00');
    await apply();
    await until((l) => l.style.type === 'simple' && l.style.fill === '#00ff00', 'the fill is saved');
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="legend-layer"][data-layer-name="nc"] [data-testid="legend-swatch"]')
          ?.getAttribute('data-colour') === '#00ff00',
    );
    await app.zoomToLayer('nc');
    await app.waitForMapIdle();
    const [r, g, b] = await app.mapPixelAt(...IN_A_COUNTY);
    assert.ok(g > 200 && r < 130 && b < 130, `a green county: ${[r, g, b]}`);
    await shot(page, 'simple');
  });

  it('graduated on BIR74, 5 quantile classes: the legend shows five classes; only numeric fields are offered', async () => {
    await panel.getByTestId('style-kind').selectOption('graduated');
    const offered = await panel.getByTestId('style-field').locator('option').allTextContents();
    assert.ok(offered.includes('BIR74') && !offered.includes('NAME'), `numeric fields only: ${offered.join(', ')}`);
    await panel.getByTestId('style-field').selectOption('BIR74');
    await panel.getByTestId('style-method').selectOption('quantile');
    await panel.getByTestId('style-classes').fill('5');
    await apply();
    const saved = await until((l) => l.style.type === 'graduated', 'the graduated style is saved');
    assert.equal(saved.style.field, 'BIR74');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="legend-layer"][data-layer-name="nc"] [data-testid="legend-swatch"]').length === 5,
    );
    assert.deepEqual(await swatches(), saved.style.colours);
    assert.match(await legend().innerText(), /BIR74/);
    await app.waitForMapIdle();
    await shot(page, 'graduated');
  });

  it('categorized on a text field (NAME): a colour per county name, the rest "Other"', async () => {
    await panel.getByTestId('style-kind').selectOption('categorized');
    await panel.getByTestId('style-field').selectOption('NAME');
    await apply();
    await until((l) => l.style.type === 'categorized' && l.style.field === 'NAME', 'the categorized style is saved');
    // The tool's default: the 12 most frequent values, and Other for the rest.
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="legend-layer"][data-layer-name="nc"] [data-testid="legend-swatch"]').length === 13,
    );
    assert.match(await legend().innerText(), /NAME[\s\S]*Other/);
    await app.waitForMapIdle();
    await shot(page, 'categorized');
  });

  it('opacity 50 %: the layer is drawn half transparent', async () => {
    await panel.getByTestId('style-opacity').fill('50');
    const l = await until((x) => x.opacity === 0.5, 'opacity 0.5 is saved');
    assert.equal(l.opacity, 0.5);
    // The layer list's own slider follows (when layers/changed reaches the page).
    await page.waitForFunction(
      () =>
        (
          document.querySelector(
            '[data-testid="layer-item"][data-layer-name="nc"] [data-testid="layer-opacity"]',
          ) as HTMLInputElement | null
        )?.value === '50',
    );
  });

  it('labels on NAME: labels are placed on the map', async () => {
    await panel.getByTestId('style-label-field').selectOption('NAME');
    await apply();
    await until((l) => l.style.labels?.text === '{NAME}', 'the labels are saved');
    assert.equal((await layer()).style.type, 'categorized', 'the colouring is kept');
    await app.waitForMapIdle();
    // The label points are computed by GDAL and fetched after the style: wait for them to be placed.
    let labels = await app.placedLabels('NAME');
    for (const end = Date.now() + 20_000; !(labels && labels.texts.length > 10) && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 250));
      labels = await app.placedLabels('NAME');
    }
    assert.ok(labels && labels.texts.length > 10, `labels placed: ${JSON.stringify(labels?.texts.length)}`);
    assert.ok(
      labels.texts.every((t) => typeof t === 'string' && t.length > 0),
      `county names: ${labels.texts.slice(0, 5).join(', ')}`,
    );
    assert.match(await legend().innerText(), /Labels: \{NAME\}/);
    await shot(page, 'labels');
  });

  it('the audit log has every style call as the user', async () => {
    for (const toolId of ['style.set_simple', 'style.graduate', 'style.categorize', 'style.labels', 'layers.set_opacity']) {
      const { entries } = await bridge.call<{ entries: AuditRow[] }>('audit/list', { toolId });
      assert.ok(
        entries.length >= 1 && entries.every((e) => e.caller === 'user' && e.outcome === 'ok'),
        `${toolId}: ${JSON.stringify(entries)}`,
      );
    }
  });

  it('Undo reverts the last style change (the labels); the panel follows', async () => {
    await app.undo();
    const l = await until((x) => !x.style.labels, 'the labels are gone');
    assert.equal(l.style.type, 'categorized');
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="style-label-field"]') as HTMLSelectElement | null)?.value === '',
    );
    await app.waitForMapIdle();
    // The annotations' own label layer stays on the map, empty: no county name is placed any more.
    const labels = await app.placedLabels('NAME');
    assert.ok(!labels || labels.texts.length === 0, `no county labels: ${JSON.stringify(labels)}`);
    await shot(page, 'undo');
  });

  it("main's refusal is shown: graduated on a numeric field without values", async () => {
    // A real field with no value in any feature (added in the layer's working copy).
    const added = await bridge.call<ToolResult>('entries/trigger', {
      entry: 'fields.add',
      params: { layer: (await layer()).id, name: 'EMPTY', type: 'real' },
    });
    assert.equal(added.ok, true, JSON.stringify(added));
    await panel.getByTestId('style-kind').selectOption('graduated');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="style-field"] option')].some((o) => o.textContent === 'EMPTY'),
    );
    await panel.getByTestId('style-field').selectOption('EMPTY');
    await panel.getByTestId('style-apply').click();
    const error = panel.getByTestId('style-error');
    await error.waitFor({ timeout: 20_000 });
    assert.match(await error.innerText(), /no numeric values/);
    assert.equal((await layer()).style.type, 'categorized', 'the style is unchanged');
    await shot(page, 'error');
    await panel.getByTestId('style-close').click();
    await panel.waitFor({ state: 'detached' });
  });
});
