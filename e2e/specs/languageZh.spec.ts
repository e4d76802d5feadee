import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshotDir } from '../support/appDriver.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';

const CITIES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'cities_zh.geojson');

/**
 * Latin-letter words that may stay in the Chinese interface: the data's own names (layer,
 * fields, file), tool ids and wire names, acronyms and formats, units, brand and product names.
 * Anything else in Latin letters in a main view is English the sweep missed.
 */
const ALLOWED = new Set(
  [
    // the data and the scripted conversation
    'cities_zh',
    'name',
    'pop',
    'geojson',
    'layers_load',
    'style_labels',
    'layers',
    'load',
    'style',
    'labels',
    // acronyms, formats, units, names
    'crs',
    'epsg',
    'wgs',
    'pdf',
    'png',
    'dpi',
    'sql',
    'api',
    'mcp',
    'url',
    'xyz',
    'tms',
    'wms',
    'wmts',
    'geotiff',
    'flatgeobuf',
    'geopackage',
    'postgis',
    'dem',
    'km',
    'ha',
    'ms',
    'px',
    'mapwright',
    'openstreetmap',
    'anthropic',
    'openai',
    'enter',
    'shift',
    'esc',
    'like',
    'and',
    'id',
    'ok',
    // page sizes, coordinates and language names
    'a4',
    'a3',
    'letter',
    'legal',
    'english',
    'n',
    'e',
    's',
    'w',
  ].map((w) => w.toLowerCase()),
);

/**
 * Words the interface shows that are not its own: main's tool summaries (built-in tools'
 * titles are translated by the renderer, toolTitles.ts; a plugin's would stay), the model's text, JSON arguments, code, paths, the tools' notices ("Loaded layer …") and the
 * legend's notes (src-shared) — kept as they come. Also the layer panel's items, whose
 * catalogue is still to come (LayerPanelItem.tsx is being reworked).
 */
const NOT_OURS = [
  '.tool-card__summary',
  '.tool-card__args',
  '.tool-card__wire',
  '.json-view',
  'code',
  'pre',
  '.approval-dialog__summary',
  '.approval-dialog__description',
  '.approval-preview dd',
  '.chat-msg--user',
  '[data-role="notice"]',
  // The model's name.
  '.status-bar__model',
  '.chat-msg--assistant .chat-msg__text',
  '.attribute-table__title',
  '.attribute-cell',
  '.attribute-column__name',
  '.audit-row__tool',
  '.maplibregl-ctrl-attrib',
  // A layer's name and its geometry type as GDAL names it (Point, MultiPolygon): data.
  '.layer-item__name',
  '.layer-item__geometry',
  '[data-testid="settings-provider"]',
  '[data-testid="settings-key-storage"]',
  '.settings-field__note',
  '[data-testid="settings-url"]',
  '[data-testid="settings-model"]',
  'select[data-testid="audit-filter-tool"]',
];

/** Latin-letter words in the visible text (and placeholders) under `root`, outside NOT_OURS. */
async function englishWords(page: Page, root: string): Promise<string[]> {
  // A string, not a function: tsx would wrap the inner helpers in `__name`, which the page lacks.
  const words = (await page.evaluate(`(() => {
    const out = [];
    const base = document.querySelector(${JSON.stringify(root)});
    if (!base) return out;
    const skip = ${JSON.stringify(NOT_OURS.join(','))};
    const walker = document.createTreeWalker(base, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(skip) || !parent.checkVisibility()) continue;
      const select = parent.closest('select');
      if (select && (select.closest(skip) || !select.checkVisibility())) continue;
      out.push(node.textContent || '');
    }
    for (const el of base.querySelectorAll('[placeholder]'))
      if (el.checkVisibility() && !el.closest(skip)) out.push(el.getAttribute('placeholder') || '');
    return out;
  })()`)) as string[];
  const text = words
    .join(' ')
    // Addresses and variable names are not words: URLs, host names, MAPWRIGHT_* variables.
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\b[\w-]+(\.[\w-]+)+\b/g, ' ')
    .replace(/\b[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\b/g, ' ')
    // SQL string literals in the filter's example ('A%').
    .replace(/'[^']*'/g, ' ')
    // Main's summary of the model the environment sets ("<model> at <url>"), kept as main words it.
    .replace(/\bscripted at\b/g, ' ');
  return [...new Set(text.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? [])];
}

async function assertNoEnglish(page: Page, root: string, view: string): Promise<void> {
  const left = (await englishWords(page, root)).filter((w) => !ALLOWED.has(w.toLowerCase()));
  assert.deepEqual(left, [], `English left in ${view}: ${left.join(', ')}`);
}

/**
 * Issue 15, languages: the whole interface in Simplified Chinese. The person switches
 * `language-select` in Settings; the choice lives in main's settings (it survives a reload);
 * the main views are then in Chinese, and a layer labelled with a Chinese field draws its
 * labels on the map (CJK glyphs are drawn locally: localIdeographFontFamily).
 */
describe('the interface in Simplified Chinese', () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-zh-' });
  let { page, app, model } = {} as SharedApp;
  before(async () => ({ page, app, model } = await session.openApp()));

  it('starts in English; switching language-select to zh-CN applies at once and survives a reload', async () => {
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.match(await page.getByTestId('status-bar').innerText(), /Ready/);
    await app.openSettings();
    const select = page.getByTestId('language-select');
    assert.equal(await select.inputValue(), 'en');
    assert.deepEqual(await select.locator('option').evaluateAll((els) => els.map((e) => [(e as HTMLOptionElement).value, e.textContent])), [
      ['en', 'English'],
      ['zh-CN', '简体中文'],
    ]);
    await select.selectOption('zh-CN');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.locator('#settings-title').innerText(), '模型');
    await app.screenshot('zh-1-settings');
    await assertNoEnglish(page, '[data-testid="settings-panel"]', 'the settings panel');
    await app.closeSettings();

    await app.reload();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.match(await page.getByTestId('status-bar').innerText(), /就绪/);
    await app.openSettings();
    assert.equal(await page.getByTestId('language-select').inputValue(), 'zh-CN');
    await app.closeSettings();
  });

  it('a scripted exchange, the layer panel, the chat and the status bar are in Chinese; Chinese labels draw on the map', async () => {
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: CITIES } }] },
      { toolCalls: [{ name: 'style_labels', arguments: { layer: 'cities_zh', field: 'name', size: 14 } }] },
      { text: '已加载城市图层，并用 name 字段添加了中文标签。' },
    ]);
    await app.askAgent('加载城市并用名称标注');
    await app.waitForApproval();
    await app.screenshot('zh-2-approval');
    await assertNoEnglish(page, '[data-testid="approval-dialog"]', 'the approval dialog');
    await app.approvePending();
    await app.waitForLayer('cities_zh');
    await app.approvePending();
    await app.waitForMessage('assistant', /中文标签/);
    await app.waitForRunIdle();

    await app.setMapView({ center: [112, 32], zoom: 4 });
    await app.waitForMapIdle();
    const labels = await app.placedLabels('name');
    assert.ok(labels, 'a label layer is on the map');
    for (const city of ['北京', '上海', '广州', '成都'])
      assert.ok(labels.texts.includes(city), `${city} placed: ${labels.texts.join(', ')}`);
    await app.screenshot('zh-3-map-chat-layers');

    await assertNoEnglish(page, '.layer-panel', 'the layer panel');
    await assertNoEnglish(page, '.chat-dock', 'the chat dock');
    await assertNoEnglish(page, '[data-testid="status-bar"]', 'the status bar');
    await assertNoEnglish(page, '[data-testid="map-legend"]', 'the legend');
  });

  it('the style panel is in Chinese, every kind of it', async () => {
    const item = page.locator('[data-testid="layer-item"][data-layer-name="cities_zh"]');
    await item.getByTestId('layer-style-open').click();
    const panel = page.getByTestId('style-panel');
    await panel.waitFor();
    assert.match(await panel.locator('.style-panel__title').innerText(), /^样式 · cities_zh$/);
    await assertNoEnglish(page, '[data-testid="style-panel"]', 'the style panel (single colour)');
    // Each kind shows its own rows (fields, classes, ramps, extrusion): scan them all. Nothing is applied.
    for (const kind of ['categorized', 'graduated', 'extrude']) {
      await panel.getByTestId('style-kind').selectOption(kind);
      if (kind === 'graduated') {
        assert.equal(await panel.getByTestId('style-method').locator('option[value="equal_interval"]').innerText(), '等间距');
        await app.screenshot('zh-8-style-panel');
      }
      await assertNoEnglish(page, '[data-testid="style-panel"]', `the style panel (${kind})`);
    }
    await panel.getByTestId('style-close').click();
    await panel.waitFor({ state: 'detached' });
  });

  it('the attribute table, the export dialog and the audit log are in Chinese', async () => {
    await page.locator('[data-testid="layer-item"][data-layer-name="cities_zh"] [data-testid="layer-open-table"]').click();
    await page.getByTestId('attribute-table').waitFor();
    await page.waitForFunction(() => /行/.test(document.querySelector('[data-testid="attribute-count"]')?.textContent ?? ''));
    await app.screenshot('zh-4-attribute-table');
    await assertNoEnglish(page, '[data-testid="attribute-table"]', 'the attribute table');

    await page.getByTestId('export-open').click();
    await page.getByTestId('export-dialog').waitFor();
    await app.screenshot('zh-5-export-dialog');
    await assertNoEnglish(page, '[data-testid="export-dialog"]', 'the export dialog');
    // A Chinese title is real text in the PDF (the CJK font is embedded, not Helvetica's spaces).
    await page.getByTestId('export-title').fill('北京市人口');
    await page.getByTestId('export-pdf').click();
    const result = page.getByTestId('export-result');
    await result.waitFor({ timeout: 60_000 });
    assert.match(await result.innerText(), /^已保存 PDF/);
    const pdf = (await result.getAttribute('data-path'))!;
    assert.match(execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }), /北京市人口/);
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdf, join(screenshotDir, 'zh-7-export-pdf')]);
    await page.getByTestId('export-close').click();

    await page.getByTestId('audit-open').click();
    await page.getByTestId('audit-row').first().waitFor();
    await app.screenshot('zh-6-audit-log');
    await assertNoEnglish(page, '[data-testid="audit-panel"]', 'the audit log');
    await page.getByTestId('audit-close').click();
  });
});
