/**
 * Raster tiles of a large GeoTIFF without overviews, through the real GIS worker process:
 *
 *   npx tsx scripts/bench/rasterTiles.mts [--size 10000] [--tiles 40] [--batch 16] [--keep]
 *
 * Builds a --size × --size GeoTIFF (tiled, DEFLATE, Int16 with nodata: the fixtures' SRTM DEM
 * of Luxembourg upsampled by gdal_translate) in a temp folder, then starts two workers:
 *   - "before": today's behaviour — no overview cache (MAPWRIGHT_CACHE_DIR unset) and one
 *     reader per raster (MAPWRIGHT_RASTER_READERS=1: tiles of one raster one at a time);
 *   - "after": the overview cache in a fresh folder and the default reader pool.
 * and prints, in one run:
 *   1. a zoomed-out tile (the whole raster in one tile) before vs after, the after worker's
 *      first such tile (which builds the overviews lazily), and ensureOverviews timed on its own;
 *   2. warm full-resolution tiles through the worker vs the in-process floor (the same
 *      window read by gdalwarp in this process + stretch + encodePng.ts), as a ratio;
 *   3. a batch of tiles of one raster requested sequentially vs all at once, both workers;
 *   4. main's TileCache in front of the worker: miss, memory hit, disk hit.
 * Times are wall-clock milliseconds on a shared machine: medians or best of a few runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Dataset } from 'gdal-async';
import type { GreyRasterStyle } from '../../src-shared/style/styleModel.js';
import { TileCache } from '../../src-main/composition/tileCache.js';
import { CACHE_DIR_ENV } from '../../src-main/gis-worker/cacheDir.js';
import { encodeGreyAlphaPng } from '../../src-main/gis-worker/encodePng.js';
import { gdal } from '../../src-main/gis-worker/gdal.js';
import { ensureOverviews } from '../../src-main/gis-worker/overviewCache.js';
import { stretchToGrey } from '../../src-main/gis-worker/stretch.js';
import { tileBounds } from '../../src-main/gis-worker/tileMath.js';
import type { GisWorkerClient } from '../../src-main/worker-host/GisWorkerClient.js';
import { makeWorkerSpawn } from '../../src-main/worker-host/workerSpawn.js';
import { ENV, FIXTURES, flag, option, startWorker } from './benchKit.js';

const DEM = path.join(FIXTURES, 'elev.tif');
const SIZE = option('size', 10_000);
const N_TILES = option('tiles', 40);
const BATCH = option('batch', 16);
const KEEP = flag('keep');

const STYLE: GreyRasterStyle = { type: 'grey', band: 1, min: null, max: null };
/** The floor stretches over fixed numbers; the stretch costs the same whatever they are. */
const FLOOR_RANGE = { min: 200, max: 550 };

interface Tile {
  z: number;
  x: number;
  y: number;
}

function tileAt(lon: number, lat: number, z: number): Tile {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return { z, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n) };
}

/** `count` distinct tiles at `z`, row by row from the raster's north-west, all inside it. */
function tilesInside(z: number, count: number, skip = 0): Tile[] {
  // elev.tif spans 5.7417–6.5333 °E, 49.4417–50.1917 °N; keep a margin.
  const nw = tileAt(5.8, 50.12, z);
  const se = tileAt(6.47, 49.5, z);
  const cols = se.x - nw.x + 1;
  const out: Tile[] = [];
  for (let k = skip; out.length < count; k++) {
    const row = Math.floor(k / cols);
    if (nw.y + row > se.y) throw new Error(`not enough tiles at z${z}`);
    out.push({ z, x: nw.x + (k % cols), y: nw.y + row });
  }
  return out;
}

/**
 * How much of a second core this run can get right now: two spinning threads against one
 * (1.0 = two free cores; 2.0 = one core's worth, the machine is busy elsewhere).
 */
async function cpuProbe(): Promise<number> {
  const code = 'let x = 0; for (let i = 0; i < 1.5e8; i++) x += i % 7; require("node:worker_threads").parentPort.postMessage(x);';
  const spin = () =>
    new Promise<void>((resolve, reject) => new Worker(code, { eval: true }).once('message', () => resolve()).once('error', reject));
  const [one] = await time(spin);
  const [two] = await time(() => Promise.all([spin(), spin()]));
  return two / one;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const ms = (v: number) => `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ms`;

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

function worker(kind: 'before' | 'after', cacheDir: string): GisWorkerClient {
  const spawn = makeWorkerSpawn({ cacheDir });
  if (kind === 'before') {
    delete spawn.env[CACHE_DIR_ENV];
    spawn.env.MAPWRIGHT_RASTER_READERS = '1';
  }
  return startWorker({ spawn });
}

const tileArgs = (source: string, t: Tile) => ({ source, ...t, style: STYLE });

/** The in-process floor for one tile: gdalwarp of the window onto the tile grid, stretch, PNG. */
async function floorTile(ds: Dataset, t: Tile): Promise<Buffer | null> {
  const b = tileBounds(t.z, t.x, t.y)!;
  const dst = await gdal.drivers.get('MEM').createAsync('', 256, 256, 2, 'Float64');
  try {
    dst.srs = gdal.SpatialReference.fromEPSG(3857);
    const res = (b[2] - b[0]) / 256;
    dst.geoTransform = [b[0], res, 0, b[3], 0, -res];
    dst.bands.get(2).colorInterpretation = 'Alpha';
    await gdal.warpAsync(null, dst, [ds], ['-r', 'bilinear', '-dstalpha']);
    const values = await dst.bands.get(1).pixels.readAsync(0, 0, 256, 256, new Float64Array(65536));
    const alpha = await dst.bands.get(2).pixels.readAsync(0, 0, 256, 256, new Float64Array(65536));
    const { grey, alpha: a, visible } = stretchToGrey(values, alpha, FLOOR_RANGE.min, FLOOR_RANGE.max);
    return visible ? encodeGreyAlphaPng(grey, a, 256, 256) : null;
  } finally {
    dst.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(DEM)) throw new Error(`The fixture DEM is missing: ${DEM}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'mapwright-bench-tiles-'));
  const before = worker('before', path.join(dir, 'cache-before'));
  const after = worker('after', path.join(dir, 'cache-after'));
  try {
    const gdalVersion = execFileSync('gdalinfo', ['--version'], { encoding: 'utf8' }).trim();
    console.log(
      `${gdalVersion}; Node ${process.version}; ${availableParallelism()} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; temp ${dir}`,
    );
    const big = path.join(dir, 'big.tif');
    const [prep] = await time(async () =>
      execFileSync(
        'gdal_translate',
        ['-q', '-outsize', String(SIZE), String(SIZE), '-r', 'bilinear', '-co', 'TILED=YES', '-co', 'COMPRESS=DEFLATE', DEM, big],
        { env: ENV },
      ),
    );
    console.log(
      `raster: ${SIZE} × ${SIZE} Int16, tiled DEFLATE, no overviews, ${(statSync(big).size / 1e6).toFixed(0)} MB on disk (made in ${ms(prep)})`,
    );

    // Both workers up, the raster open and its statistics computed (one full-resolution tile).
    const first = tilesInside(14, 1)[0]!;
    for (const w of [before, after]) await w.call('display.raster_tile', tileArgs(big, first));

    // ---- 1. zoomed out ----
    const whole = tileAt(6.13, 49.81, 8); // the whole raster falls in this tile
    const naive: number[] = [];
    for (let i = 0; i < 2; i++) naive.push((await time(() => before.call('display.raster_tile', tileArgs(big, whole))))[0]);
    const [lazy] = await time(() => after.call('display.raster_tile', tileArgs(big, whole)));
    const withOvr: number[] = [];
    for (let i = 0; i < 5; i++) withOvr.push((await time(() => after.call('display.raster_tile', tileArgs(big, whole))))[0]);
    const z10 = tilesInside(10, 4);
    const naive10: number[] = [];
    const ovr10: number[] = [];
    for (const t of z10) {
      naive10.push((await time(() => before.call('display.raster_tile', tileArgs(big, t))))[0]);
      ovr10.push((await time(() => after.call('display.raster_tile', tileArgs(big, t))))[0]);
    }
    // ensureOverviews on its own, in this process, into another folder (the build the layer load triggers).
    process.env[CACHE_DIR_ENV] = path.join(dir, 'cache-inprocess');
    let reports = 0;
    const [build, vrt] = await time(() => ensureOverviews(big, { progress: () => reports++ }));
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 300);
    process.env[CACHE_DIR_ENV] = path.join(dir, 'cache-cancelled');
    const [cancelAt] = await time(() => ensureOverviews(big, { signal: cancel.signal }).catch(() => null));

    console.log('\n1. zoomed-out tiles (grey, stretch from band statistics)');
    console.log(
      `   z8, whole raster in one tile   before ${ms(Math.min(...naive))}   after ${ms(Math.min(...withOvr))}   ${(Math.min(...naive) / Math.min(...withOvr)).toFixed(0)}× faster`,
    );
    console.log(
      `   z10 tiles (median of ${z10.length})         before ${ms(median(naive10))}   after ${ms(median(ovr10))}   ${(median(naive10) / median(ovr10)).toFixed(0)}× faster`,
    );
    console.log(`   after, first z8 tile: ${ms(lazy)} (builds the overviews lazily, then renders)`);
    console.log(
      `   ensureOverviews alone: ${ms(build)}, ${reports} progress reports, → ${path.relative(dir, vrt)}; cancelled 300 ms in: returned after ${ms(cancelAt)}`,
    );

    // ---- 2. warm tile vs the in-process floor ----
    // One pass to read the blocks everywhere, then the three are timed tile by tile,
    // interleaved, so that load from elsewhere on the machine falls on all of them alike.
    const warm = tilesInside(14, N_TILES, 1);
    const ds = await gdal.openAsync(big);
    for (const t of warm) {
      await after.call('display.raster_tile', tileArgs(big, t));
      await before.call('display.raster_tile', tileArgs(big, t));
      await floorTile(ds, t);
    }
    const viaWorker: number[] = [];
    const viaBefore: number[] = [];
    const floor: number[] = [];
    for (let pass = 0; pass < 2; pass++) {
      for (const t of warm) {
        viaWorker.push((await time(() => after.call('display.raster_tile', tileArgs(big, t))))[0]);
        viaBefore.push((await time(() => before.call('display.raster_tile', tileArgs(big, t))))[0]);
        floor.push((await time(() => floorTile(ds, t)))[0]);
      }
    }
    ds.close();
    console.log(
      `\n2. warm full-resolution tile (z14, median of ${N_TILES} tiles × 2 passes, interleaved; raster open, statistics and blocks cached)`,
    );
    console.log(`   in-process floor (gdalwarp window + stretch + encodePng): ${ms(median(floor))}`);
    console.log(`   through the worker, after:  ${ms(median(viaWorker))}   ratio ${(median(viaWorker) / median(floor)).toFixed(2)}`);
    console.log(`   through the worker, before: ${ms(median(viaBefore))}   ratio ${(median(viaBefore) / median(floor)).toFixed(2)}`);

    // ---- 3. sequential vs concurrent ----
    const batch = tilesInside(14, BATCH, 1 + N_TILES);
    for (const w of [before, after]) for (const t of batch) await w.call('display.raster_tile', tileArgs(big, t));
    const probeBefore = await cpuProbe();
    const runs = { before: { seq: Infinity, par: Infinity }, after: { seq: Infinity, par: Infinity } };
    // Best of 5, the two workers taking turns, so a busy moment elsewhere does not pick one.
    for (let run = 0; run < 5; run++) {
      for (const [name, w] of [
        ['before', before],
        ['after', after],
      ] as const) {
        const r = runs[name];
        r.seq = Math.min(
          r.seq,
          (
            await time(async () => {
              for (const t of batch) await w.call('display.raster_tile', tileArgs(big, t));
            })
          )[0],
        );
        r.par = Math.min(r.par, (await time(() => Promise.all(batch.map((t) => w.call('display.raster_tile', tileArgs(big, t))))))[0]);
      }
    }
    const rows = [
      ['before (1 reader)', runs.before],
      ['after (reader pool)', runs.after],
    ].map(([name, r]) => {
      const { seq, par } = r as { seq: number; par: number };
      return `   ${String(name).padEnd(20)} sequential ${ms(seq).padStart(8)}   concurrent ${ms(par).padStart(8)}   ${(seq / par).toFixed(2)}×`;
    });
    const probeAfter = await cpuProbe();
    console.log(
      `\n3. ${BATCH} warm z14 tiles of one raster, best of 5 (${availableParallelism()} cores; CPU probe ${probeBefore.toFixed(2)} / ${probeAfter.toFixed(2)} before / after: 1.0 = two free cores, 2.0 = one)`,
    );
    for (const r of rows) console.log(r);

    // ---- 4. main's tile cache in front of the worker ----
    const cache = new TileCache({ dir: path.join(dir, 'tiles') });
    const keyOf = (t: Tile) => ['raster-tile', big, 'style', t.z, t.x, t.y];
    const probe = tilesInside(13, 8);
    const miss: number[] = [];
    const memHit: number[] = [];
    const diskHit: number[] = [];
    for (const t of probe)
      miss.push((await time(() => cache.cached(keyOf(t), () => after.call('display.raster_tile', tileArgs(big, t)))))[0]);
    for (const t of probe)
      memHit.push((await time(() => cache.cached(keyOf(t), () => after.call('display.raster_tile', tileArgs(big, t)))))[0]);
    await cache.settled();
    const cold = new TileCache({ dir: path.join(dir, 'tiles') });
    for (const t of probe)
      diskHit.push((await time(() => cold.cached(keyOf(t), () => after.call('display.raster_tile', tileArgs(big, t)))))[0]);
    console.log(
      `\n4. main's TileCache (z13, median of ${probe.length}): miss (worker renders) ${ms(median(miss))}, memory hit ${ms(median(memHit))}, disk hit ${ms(median(diskHit))}`,
    );
  } finally {
    before.dispose();
    after.dispose();
    if (KEEP) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
