/**
 * A large vector layer on the map, through the real web host in Chromium: vector tiles from the
 * worker (what the app does past src-shared/style/vectorTiles.ts TILED_ABOVE_FEATURES) against
 * the whole-GeoJSON path (what it did before: one `data/layers/ID.geojson` document, added here
 * to the same page as a GeoJSON source), in the same run on the same file.
 *
 *   npx tsx scripts/bench/vectorTiles.mts [--points 1000000] [--squares 0] [--keep DIR] [--no-naive]
 *
 * Prints: approve → first paint (a feature of the layer rendered) and → map idle; main-process
 * and worker memory (RSS) before and after; frame times while zooming and panning (median, p95,
 * worst); tile sizes and thinning; and the same for the GeoJSON path with the ratio. Data is
 * generated (e2e/support/bigData.ts, seeded) into a temp folder unless --keep names one to reuse.
 * Needs `npm run build` first (it starts dist/main/web-host.js).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { AppDriver } from '../../e2e/support/appDriver.js';
import { makePointsGpkg, makeSquaresGpkg } from '../../e2e/support/bigData.js';
import { launchBrowser } from '../../e2e/support/browser.js';
import { startWebHost } from '../../e2e/support/webHost.js';
import { flag, option } from './benchKit.js';

const POINTS = option('points', 1_000_000);
const SQUARES = option('squares', 0);
const keepAt = process.argv.indexOf('--keep');
const NAIVE = !flag('no-naive');

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}
function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
const mib = (n: number) => `${n.toFixed(0)} MiB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Waits until the map has drawn at least one feature of these style layers; returns when (Date.now). */
async function firstRendered(page: Page, layerIds: () => Promise<string[]>, timeoutMs: number): Promise<number> {
  const ids = await layerIds();
  await page.waitForFunction(
    (wanted) => {
      const map = (
        window as unknown as { __mapwright: { map: { getLayer(id: string): unknown; queryRenderedFeatures(o: object): unknown[] } } }
      ).__mapwright.map;
      const present = wanted.filter((id) => map.getLayer(id));
      return present.length > 0 && map.queryRenderedFeatures({ layers: present }).length > 0;
    },
    ids,
    { timeout: timeoutMs, polling: 20 },
  );
  return Date.now();
}

/** Frame times (ms between animation frames) while the map zooms in, pans and zooms out. */
async function frameTimes(page: Page): Promise<{ median: number; p95: number; worst: number; frames: number }> {
  // A string, not a function: tsx would wrap the inner functions in a helper the page lacks.
  const deltas = (await page.evaluate(`(async () => {
    const map = window.__mapwright.map;
    const out = [];
    let last = performance.now();
    let running = true;
    function tick(t) { out.push(t - last); last = t; if (running) requestAnimationFrame(tick); }
    requestAnimationFrame(tick);
    const wait = (n) => new Promise((r) => setTimeout(r, n));
    const z = map.getZoom();
    map.easeTo({ zoom: z + 1.5, duration: 1200 });
    await wait(1400);
    map.panBy([350, 120], { duration: 1200 });
    await wait(1400);
    map.easeTo({ zoom: z, duration: 1200 });
    await wait(1400);
    running = false;
    return out.slice(1);
  })()`)) as number[];
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), worst: sorted[sorted.length - 1] ?? NaN, frames: deltas.length };
}

/** Opens the layer's attribute table and jumps to far rows, timing each until the row is drawn. */
async function attributeTableTimes(page: Page, layerName: string, rows: number) {
  const t0 = Date.now();
  await page.locator(`[data-testid="layer-item"][data-layer-name="${layerName}"] [data-testid="layer-open-table"]`).click();
  await page.locator('[data-testid="attribute-row"][data-index="0"]').waitFor({ timeout: 60_000 });
  const open = Date.now() - t0;
  const jump = async (index: number) => {
    const start = Date.now();
    await page.getByTestId('attribute-table-scroll').evaluate((el, i) => {
      el.scrollTop = i * Number((el as HTMLElement).dataset.scrollPerRow);
    }, index);
    await page.locator(`[data-testid="attribute-row"][data-index="${index}"]`).waitFor({ timeout: 60_000 });
    // Drawn with its values, not a placeholder: the row carries its feature id once loaded.
    await page.locator(`[data-testid="attribute-row"][data-index="${index}"][data-fid]`).waitFor({ timeout: 60_000 });
    return Date.now() - start;
  };
  const farRow = Math.floor(rows * 0.9);
  const far = await jump(farRow);
  const rnd = (() => {
    let a = 7;
    return () => (a = (a * 1103515245 + 12345) % 2147483648) / 2147483648;
  })();
  const random: number[] = [];
  for (let i = 0; i < 8; i++) random.push(await jump(Math.floor(rnd() * (rows - 50))));
  const sorted = [...random].sort((a, b) => a - b);
  await page.getByTestId('attribute-table-close').click();
  return { open, farRow, far, random, randomMedian: sorted[Math.floor(sorted.length / 2)]!, randomWorst: sorted[sorted.length - 1]! };
}

async function main(): Promise<void> {
  const dir = keepAt > 0 ? process.argv[keepAt + 1]! : mkdtempSync(join(tmpdir(), 'mapwright-bench-vt-'));
  mkdirSync(dir, { recursive: true });
  const file = SQUARES > 0 ? join(dir, `squares-${SQUARES}.gpkg`) : join(dir, `points-${POINTS}.gpkg`);
  const layerName = SQUARES > 0 ? `squares-${SQUARES}` : `points-${POINTS}`;
  if (!existsSync(file)) {
    const t0 = Date.now();
    if (SQUARES > 0) await makeSquaresGpkg(file, SQUARES);
    else await makePointsGpkg(file, POINTS);
    console.log(`generated ${file} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  const browser = await launchBrowser();
  const model = await startScriptedModelServer();
  const home = mkdtempSync(join(tmpdir(), 'mapwright-bench-home-'));
  const host = await startWebHost({ MAPWRIGHT_HOME: home, MAPWRIGHT_MODEL_URL: model.url, MAPWRIGHT_MODEL: 'scripted' });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const tiles: { kept: number; dropped: number; bytes: number }[] = [];
    const firstTile = { requested: 0, answered: 0 };
    page.on('request', (r) => {
      if (r.url().includes('.pbf') && !firstTile.requested) firstTile.requested = Date.now();
    });
    page.on('response', (r) => {
      if (r.url().includes('.pbf') && !firstTile.answered) firstTile.answered = Date.now();
      const h = r.headers()['x-mapwright-tile'];
      const m = h && /kept=(\d+); dropped=(\d+); bytes=(\d+)/.exec(h);
      if (m) tiles.push({ kept: +m[1]!, dropped: +m[2]!, bytes: +m[3]! });
    });
    const app = new AppDriver(page);
    await app.open(host.url);
    // The worker starts with the app; give it the moment a person would have before the first load.
    await page.waitForTimeout(2500);
    const pid = host.process.pid!;
    const before = { main: rssMiB(pid), worker: childPids(pid).reduce((s, p) => s + rssMiB(p), 0) };
    // The same animation on the empty map: what this machine's software GL manages at all.
    const emptyFrames = await frameTimes(page);

    model.script([{ toolCalls: [{ name: 'layers_load', arguments: { path: file } }] }, { text: 'Loaded.' }]);
    await app.askAgent('load the big layer');
    await app.waitForApproval();
    const t0 = Date.now();
    await app.approvePending();
    const appLayers = () =>
      page.evaluate(() =>
        (window as unknown as { __mapwright: { map: { getStyle(): { layers: { id: string }[] } } } }).__mapwright.map
          .getStyle()
          .layers.map((l) => l.id)
          .filter((id) => id.startsWith('layer-')),
      );
    await page.waitForFunction(
      () =>
        (window as unknown as { __mapwright: { map: { getStyle(): { layers: { id: string }[] } } } }).__mapwright.map
          .getStyle()
          .layers.some((l) => l.id.startsWith('layer-')),
      undefined,
      { timeout: 300_000, polling: 20 },
    );
    const onMap = Date.now() - t0;
    const tiledPaint = (await firstRendered(page, appLayers, 300_000)) - t0;
    await app.waitForMapIdle();
    const tiledIdle = Date.now() - t0;
    await app.waitForRunIdle();
    const tiledFrames = await frameTimes(page);
    await app.waitForMapIdle();
    const afterTiled = { main: rssMiB(pid), worker: childPids(pid).reduce((s, p) => s + rssMiB(p), 0) };
    await app.screenshot('bench-vector-tiles');
    const tableTimes = SQUARES > 0 ? null : await attributeTableTimes(page, layerName, POINTS);

    console.log(`\n${layerName}: ${file}`);
    console.log('                         tiles (now)      whole GeoJSON (before)   ratio');
    let naive: { paint: number; idle: number; frames: Awaited<ReturnType<typeof frameTimes>>; main: number } | null = null;
    if (NAIVE) {
      // The old path, on a fresh page of the same app (the first page's tiles and memory do not
      // weigh on it): the tiled layer hidden, the layer's whole GeoJSON document as one source.
      const url = await page.evaluate(() => {
        const map = (window as unknown as { __mapwright: { map: { getStyle(): { sources: Record<string, { tiles?: string[] }> } } } })
          .__mapwright.map;
        const tiled = Object.values(map.getStyle().sources).find((s) => s.tiles?.[0]?.includes('.pbf'));
        return tiled!.tiles![0]!.replace(/tiles\/([\w-]+)\/v-[0-9a-z]+\/\{z\}\/\{x\}\/\{y\}\.pbf/, 'data/layers/$1.geojson');
      });
      await page.close();
      const page2 = await browser.newPage({ viewport: { width: 1400, height: 860 } });
      const app2 = new AppDriver(page2);
      await app2.open(host.url);
      await page2.evaluate(() => {
        const map = (
          window as unknown as {
            __mapwright: { map: { getStyle(): { layers: { id: string }[] }; setLayoutProperty(id: string, k: string, v: string): void } };
          }
        ).__mapwright.map;
        for (const l of map.getStyle().layers) if (l.id.startsWith('layer-')) map.setLayoutProperty(l.id, 'visibility', 'none');
      });
      await app2.waitForMapIdle();
      const n0 = Date.now();
      await page2.evaluate((data) => {
        const map = (window as unknown as { __mapwright: { map: { addSource(id: string, s: object): void; addLayer(l: object): void } } })
          .__mapwright.map;
        map.addSource('bench-naive', { type: 'geojson', data });
        map.addLayer({
          id: 'bench-naive',
          type: 'circle',
          source: 'bench-naive',
          paint: { 'circle-radius': 3, 'circle-color': '#d62728' },
        });
      }, url);
      let paint = NaN;
      let idle = NaN;
      let frames = { median: NaN, p95: NaN, worst: NaN, frames: 0 };
      try {
        paint = (await firstRendered(page2, async () => ['bench-naive'], 600_000)) - n0;
        await app2.waitForMapIdle().catch(() => undefined);
        idle = Date.now() - n0;
        frames = await frameTimes(page2);
      } catch (err) {
        console.log(`  the whole-GeoJSON path failed: ${(err as Error).message.split('\n')[0]}`);
      }
      naive = { paint, idle, frames, main: rssMiB(pid) };
    }
    const row = (label: string, a: number, b: number | undefined, fmt: (n: number) => string) =>
      console.log(
        `${label.padEnd(25)}${fmt(a).padEnd(17)}${b === undefined ? '' : (Number.isFinite(b) ? fmt(b) : 'failed').padEnd(25)}${b !== undefined && Number.isFinite(b) && a > 0 ? `${(b / a).toFixed(1)}×` : ''}`,
      );
    console.log(
      `(tiles: layer on the map after ${ms(onMap)}, first tile asked at ${ms(firstTile.requested - t0)}, answered at ${ms(firstTile.answered - t0)})`,
    );
    row('approve → first paint', tiledPaint, naive?.paint, ms);
    row('approve → map idle', tiledIdle, naive?.idle, ms);
    console.log(`frames on the empty map: median ${ms(emptyFrames.median)}, p95 ${ms(emptyFrames.p95)} (${emptyFrames.frames} frames)`);
    row('frame median (pan/zoom)', tiledFrames.median, naive?.frames.median, ms);
    row('frame p95', tiledFrames.p95, naive?.frames.p95, ms);
    row('frame worst', tiledFrames.worst, naive?.frames.worst, ms);
    console.log(
      `main RSS: ${mib(before.main)} before → ${mib(afterTiled.main)} with tiles (+${mib(afterTiled.main - before.main)})${naive ? ` → ${mib(naive.main)} after GeoJSON` : ''}`,
    );
    if (tableTimes) {
      console.log(
        `attribute table: open → first rows ${ms(tableTimes.open)}; scroll to row ${tableTimes.farRow.toLocaleString('en-US')} → ${ms(tableTimes.far)}; ` +
          `random rows: median ${ms(tableTimes.randomMedian)}, worst ${ms(tableTimes.randomWorst)} (${tableTimes.random.length} jumps)`,
      );
    }
    console.log(`worker RSS: ${mib(before.worker)} before → ${mib(afterTiled.worker)} with tiles`);
    const kept = tiles.map((t) => t.kept);
    const bytes = tiles.map((t) => t.bytes).sort((a, b) => a - b);
    console.log(
      `tiles: ${tiles.length}, features kept per tile max ${Math.max(0, ...kept)}, dropped in all ${tiles.reduce((s, t) => s + t.dropped, 0)}, bytes median ${bytes[Math.floor(bytes.length / 2)] ?? 0} max ${bytes[bytes.length - 1] ?? 0}`,
    );
  } finally {
    await host.stop();
    await browser.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
    if (keepAt < 0) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
