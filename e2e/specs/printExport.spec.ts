import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { planLayout, type Box } from '../../src-shared/print/layoutPlan.js';
import { colourDistance, pixelOf, type AppDriver } from '../support/appDriver.js';
import { useAppSession } from '../support/appSession.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { gisFixtures } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping print export e2e: ${NC} is absent`);

interface ProjectLayer {
  name: string;
  style: { type: string; fill?: string };
}
interface ToolResult {
  ok: boolean;
  data?: { path: string; format: string; width: number; height: number; dpi: number; pages: number };
  error?: { code: string; message: string };
}

const hex = (colour: string) => [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/print-${name}.png` });

/** Page 1 of a PDF as poppler renders it at `dpi`, written to `out` (without .png) and read back. */
function renderPdf(pdf: string, dpi: number, out: string): PNG {
  execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', pdf, out]);
  return PNG.sync.read(readFileSync(`${out}.png`));
}

/** Pixels of `box` (page pixels at the plan's DPI) in an image of the same page. */
function pixelsIn(png: PNG, box: Box): number[][] {
  const out: number[][] = [];
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) out.push(pixelOf(png, x, y));
  return out;
}

/**
 * Print layouts (issue #15) in Chromium against the web host: the person exports nc.gpkg's map
 * as an A4 landscape PDF from the Export dialog, and the model exports a PNG after approval.
 * The PDF is read back with poppler: its size, its title as text, and on the rendered page the
 * layer's legend swatch in the legend box and a drawn map in the map frame.
 */
describe('print layout export in Chromium (nc.gpkg)', { skip: !haveFixtures }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-print-' });
  let page: Page;
  let app: AppDriver;
  let bridge: BridgeSocket;
  let folder: string;
  let fill: number[];

  before(async () => {
    ({ page, app } = await session.openApp());
    folder = mkdtempSync(join(tmpdir(), 'mapwright-e2e-print-data-'));
    const source = join(folder, 'nc.gpkg');
    copyFileSync(NC, source);
    bridge = await BridgeSocket.connect(session.host.url);
    // A path from the interface is asked for: the dialog shows in the page, the person approves.
    const loading = bridge.call<ToolResult>('entries/trigger', { entry: 'layers.load', params: { path: source } });
    await app.approvePending();
    assert.equal((await loading).ok, true, JSON.stringify(await loading));
    await app.waitForLayer('nc');
    await app.waitForMapIdle();
    const { layers } = await bridge.call<{ layers: ProjectLayer[] }>('project/get');
    const nc = layers.find((l) => l.name === 'nc')!;
    assert.equal(nc.style.type, 'simple');
    fill = hex(nc.style.fill!);
  });
  after(() => {
    bridge?.close?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('the person exports an A4 landscape PDF: title as text, the legend swatch and the map on the page', async () => {
    // The layer as the map draws it (its fill is translucent): inside a county, before the dialog dims the page.
    const onScreen = await app.mapPixelAt(-79.25, 35.7);
    await page.getByTestId('export-open').click();
    await page.getByTestId('export-title').fill('North Carolina counties');
    await page.getByTestId('export-page-size').selectOption('A4');
    await page.getByTestId('export-orientation').selectOption('landscape');
    await shot(page, 'dialog');
    await page.getByTestId('export-pdf').click();
    const result = page.getByTestId('export-result');
    await result.waitFor({ timeout: 40_000 });
    await shot(page, 'dialog-result');
    const pdf = (await result.getAttribute('data-path'))!;
    assert.match(basename(pdf), /^North_Carolina_counties(_\d+)?\.pdf$/);
    assert.match(basename(dirname(pdf)), /-outputs$/, 'the file is in the project outputs folder');
    assert.ok(existsSync(pdf), pdf);
    assert.equal(readFileSync(pdf).subarray(0, 5).toString(), '%PDF-');

    const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
    assert.match(info, /Pages:\s+1\b/);
    assert.match(info, /Page size:\s+841\.89 x 595\.27\d* pts \(A4\)/);
    assert.match(info, /Creator:\s+Mapwright/);
    assert.match(execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }), /North Carolina counties/);

    // A larger rendering to look at.
    renderPdf(pdf, 100, '/tmp/print-page-a4-landscape');
    // Poppler's page at 40 DPI: A4 landscape is 468 × 331 px (√2 : 1).
    const rendered = renderPdf(pdf, 40, join(folder, 'page'));
    assert.ok(Math.abs(rendered.width / rendered.height - 297 / 210) < 0.01, `${rendered.width} × ${rendered.height}`);
    const plan = planLayout('A4', 'landscape', 40);
    assert.ok(Math.abs(rendered.width - plan.page.widthPx) <= 1);
    const legend = pixelsIn(rendered, plan.legend);
    const swatch = legend.filter((p) => colourDistance(p, fill) < 20).length;
    assert.ok(swatch >= 8, `the layer's fill ${JSON.stringify(fill)} is in the legend box (${swatch} px)`);
    const inner = { x: plan.map.x + 2, y: plan.map.y + 2, width: plan.map.width - 4, height: plan.map.height - 4 };
    const map = pixelsIn(rendered, inner);
    const drawn = map.filter((p) => colourDistance(p, [255, 255, 255]) > 30).length;
    assert.ok(drawn > map.length * 0.5, `the map frame is drawn (${drawn} of ${map.length} px not white)`);
    const layerPixels = map.filter((p) => colourDistance(p, onScreen) < 25).length;
    assert.ok(layerPixels > map.length * 0.05, `the layer ${JSON.stringify(onScreen)} shows in the map frame (${layerPixels} px)`);
    await page.getByTestId('export-close').click();
    await page.getByTestId('export-dialog').waitFor({ state: 'detached' });
  });

  it('the model’s map_export writes a PNG after approval (A3 portrait)', async () => {
    session.model.script([
      {
        toolCalls: [
          { name: 'map_export', arguments: { format: 'png', title: 'Counties (model)', page_size: 'A3', orientation: 'portrait' } },
        ],
      },
      { text: 'Saved the map layout.' },
    ]);
    const before = session.model.requests.length;
    await app.askAgent('export the map as a PNG');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /Export the map as PNG/);
    await shot(page, 'approval');
    await app.approvePending();
    await app.waitForMessage('assistant', /Saved the map layout/, 60_000);
    const answer = JSON.parse(String(session.model.requests[before + 1]!.messages.at(-1)!.content)) as ToolResult;
    assert.equal(answer.ok, true, JSON.stringify(answer));
    const out = answer.data!;
    assert.match(out.path, /Counties_model(_\d+)?\.png$/);
    const png = PNG.sync.read(readFileSync(out.path));
    assert.deepEqual([png.width, png.height], [out.width, out.height]);
    assert.ok(Math.abs(png.height / png.width - 420 / 297) < 0.01, `A3 portrait: ${png.width} × ${png.height}`);
    const plan = planLayout('A3', 'portrait', out.dpi);
    assert.equal(png.width, plan.page.widthPx);
    const legend = pixelsIn(png, plan.legend).filter((p) => colourDistance(p, fill) < 20).length;
    assert.ok(legend >= 20, `the legend swatch is on the PNG page (${legend} px)`);
    copyFileSync(out.path, '/tmp/print-model-a3-portrait.png');
    await app.waitForMessage('notice', /Exported the map layout to/);
  });
});
