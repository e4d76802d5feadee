import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { GreyRasterStyle } from '../../src-shared/style/styleModel.js';
import { CACHE_DIR_ENV } from './cacheDir.js';
import { CancelledError } from './errors.js';
import { gdal } from './gdal.js';
import { cachedOverviews, ensureOverviews, ensureOverviewSet, overviewBuildCount } from './overviewCache.js';
import { RasterCache } from './rasterCache.js';
import { renderRasterTile } from './renderRasterTile.js';
import { decodePng, fixture, gdalCli, makeTempDir, skipReason } from './testSupport.js';

const tmp = makeTempDir('mapwright-overviews-');
const cacheRoot = path.join(tmp.dir, 'cache');
process.env[CACHE_DIR_ENV] = cacheRoot;
const overviewsDir = path.join(cacheRoot, 'overviews');
const data = path.join(tmp.dir, 'data');
mkdirSync(data);

after(() => tmp.cleanup());

/** Every file of a folder with its size and mtime, and the folder's own mtime. */
function listing(dir: string): string {
  const entries = readdirSync(dir)
    .sort()
    .map((name) => {
      const st = statSync(path.join(dir, name));
      return `${name} ${st.size} ${st.mtimeMs}`;
    });
  return [`. ${statSync(dir).mtimeMs}`, ...entries].join('\n');
}

/** A raster larger than the threshold: elev.tif (Luxembourg DEM, Int16 with nodata) upsampled. */
function bigDem(name: string, width = 3000, height = 2600): string {
  const file = path.join(data, name);
  gdalCli('gdal_translate', ['-q', '-outsize', String(width), String(height), '-r', 'bilinear', fixture('elev.tif'), file]);
  return file;
}

function tileAt(lon: number, lat: number, z: number): { z: number; x: number; y: number } {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return { z, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n) };
}

const grey = (min: number, max: number): GreyRasterStyle => ({ type: 'grey', band: 1, min, max });

/** Visible grey values of a grey+alpha tile. */
function greys(png: Uint8Array): number[] {
  const img = decodePng(png);
  const out: number[] = [];
  for (let i = 0; i < img.width * img.height; i++) if (img.data[i * 2 + 1]! > 0) out.push(img.data[i * 2]!);
  return out;
}

describe('overview cache', { skip: skipReason }, () => {
  let dem = '';

  test('builds overviews in the cache, never beside the source, and GDAL reads them', async () => {
    dem = bigDem('dem.tif');
    const before = listing(data);
    const fractions: number[] = [];
    const vrt = await ensureOverviews(dem, { progress: (f) => fractions.push(f) });

    assert.equal(listing(data), before, 'the source and its folder are untouched');
    assert.ok(vrt.startsWith(overviewsDir + path.sep), `served from the cache: ${vrt}`);
    assert.ok(fractions.length >= 3 && fractions.at(-1) === 1, `progress ${fractions.join(' ')}`);
    assert.ok(
      fractions.every((f, i) => i === 0 || f >= fractions[i - 1]!),
      'progress only goes up',
    );

    const ds = gdal.open(vrt);
    const band = ds.bands.get(1);
    assert.deepEqual(ds.rasterSize, { x: 3000, y: 2600 });
    assert.deepEqual(
      Array.from({ length: band.overviews.count() }, (_, i) => band.overviews.get(i).size),
      [
        { x: 1500, y: 1300 },
        { x: 750, y: 650 },
        { x: 375, y: 325 },
        { x: 188, y: 163 },
      ],
    );
    assert.equal(band.noDataValue, -32768);
    // Full resolution is the source itself.
    const src = gdal.open(dem);
    assert.deepEqual(band.pixels.read(1000, 1000, 64, 64), src.bands.get(1).pixels.read(1000, 1000, 64, 64));
    // The first level is GDAL's own average (what gdal_translate -r average computes), nodata left out.
    const ref = path.join(tmp.dir, 'ref-average.tif');
    gdalCli('gdal_translate', ['-q', '-outsize', '1500', '1300', '-r', 'average', dem, ref]);
    const expected = gdal.open(ref).bands.get(1).pixels.read(0, 0, 1500, 1300);
    const actual = band.overviews.get(0).pixels.read(0, 0, 1500, 1300);
    let same = 0;
    for (let i = 0; i < expected.length; i++) if (Math.abs(expected[i]! - actual[i]!) <= 1) same++;
    assert.ok(
      same / expected.length > 0.999,
      `level 1 agrees with gdal_translate -r average on ${((100 * same) / expected.length).toFixed(2)} %`,
    );
    src.close();
    ds.close();

    // Asked again: the same entry, no new build.
    const started = overviewBuildCount.started;
    assert.equal(await ensureOverviews(dem), vrt);
    assert.equal(overviewBuildCount.started, started);
    assert.equal((await cachedOverviews(dem))?.vrt, vrt);
  });

  test('small rasters, and rasters with overviews of their own, are read as they are', async () => {
    const elev = fixture('elev.tif');
    assert.equal(await ensureOverviews(elev), elev);
    const own = path.join(data, 'own.tif');
    copyFileSync(dem, own);
    gdalCli('gdaladdo', ['-q', own, '2', '4']);
    assert.equal(await ensureOverviews(own), own);
    assert.equal(await ensureOverviews(`${dem}|layername=x`), `${dem}|layername=x`, 'a sublayer is not a plain file');
  });

  test('concurrent callers share one build; one of them giving up does not stop it', async () => {
    const file = bigDem('shared.tif');
    const started = overviewBuildCount.started;
    const quitter = new AbortController();
    // A gives up once the shared build is under way (its first progress report).
    const a = ensureOverviews(file, { signal: quitter.signal, progress: () => quitter.abort() });
    const b = ensureOverviews(file);
    const c = ensureOverviews(file);
    await assert.rejects(a, (err: Error) => err instanceof CancelledError);
    const [vb, vc] = await Promise.all([b, c]);
    assert.equal(vb, vc);
    assert.ok(vb.endsWith('overviews.vrt'));
    assert.equal(overviewBuildCount.started, started + 1, 'one build for three callers');
  });

  test('cancelled by its only caller: stops between strips and leaves nothing behind', async () => {
    const file = bigDem('cancel.tif', 6000, 5000);
    const before = readdirSync(overviewsDir).sort();
    const controller = new AbortController();
    const t0 = performance.now();
    await assert.rejects(
      ensureOverviews(file, { signal: controller.signal, progress: () => controller.abort() }),
      (err: Error) => err instanceof CancelledError,
    );
    // Let the build notice and clean up.
    for (let i = 0; i < 50 && readdirSync(overviewsDir).some((n) => n.includes('.tmp-')); i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(readdirSync(overviewsDir).sort(), before, 'no entry and no temporary folder');
    assert.ok(performance.now() - t0 < 5000);
    assert.equal(await cachedOverviews(file), null);
  });

  test('a caller arriving while an abandoned build stops gets a build of its own', async () => {
    const file = bigDem('rejoin.tif');
    const started = overviewBuildCount.started;
    const quitter = new AbortController();
    let late = null as Promise<string> | null;
    const first = ensureOverviews(file, {
      signal: quitter.signal,
      progress: () => {
        if (late) return;
        quitter.abort();
        late = ensureOverviews(file);
      },
    });
    await assert.rejects(first, (err: Error) => err instanceof CancelledError);
    assert.ok(late, 'the late caller came');
    const vrt: string = await late;
    assert.ok(vrt.endsWith('overviews.vrt'));
    assert.equal(overviewBuildCount.started, started + 2);
  });

  test('a file rewritten in place gets new overviews; the old entry is removed', async () => {
    const file = bigDem('rewritten.tif');
    const first = await ensureOverviewSet(file);
    assert.ok(first);
    utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    assert.equal(await cachedOverviews(file), null, 'the old entry is not the new file');
    const second = await ensureOverviewSet(file);
    assert.ok(second && second.vrt !== first.vrt);
    assert.ok(!readdirSync(overviewsDir).includes(path.basename(path.dirname(first.vrt))), 'superseded entry removed');
  });

  test('a zoomed-out tile builds the overviews lazily and reads them, a zoomed-in tile reads the source', async () => {
    const file = bigDem('tiles.tif');
    assert.equal(await cachedOverviews(file), null);
    const rasters = new RasterCache(2);
    const out = tileAt(6.1, 49.8, 9); // ~300 m pixels over ~30 m source pixels: a level of 8
    const near = tileAt(6.1, 49.8, 13); // finer than the source: full resolution
    const first = await renderRasterTile(rasters, { source: file, ...out, style: grey(0, 600) });
    assert.ok(first && greys(first).length > 1000);
    const set = await cachedOverviews(file);
    assert.ok(set, 'the zoomed-out tile built the overviews');
    await rasters.clear();

    // Mark every level: a tile that shows the mark read a level, one that does not read the source.
    for (const level of set.levels) {
      const ds = gdal.open(level.path, 'r+');
      const band = ds.bands.get(1);
      band.pixels.write(0, 0, level.width, level.height, new Int16Array(level.width * level.height).fill(300));
      ds.close();
    }
    const marked = new RasterCache(2);
    const zoomedOut = greys((await renderRasterTile(marked, { source: file, ...out, style: grey(0, 600) }))!);
    assert.ok(zoomedOut.length > 1000);
    assert.ok(
      zoomedOut.every((g) => Math.abs(g - 128) <= 1),
      'zoomed out: the overview level was read',
    );
    const zoomedIn = greys((await renderRasterTile(marked, { source: file, ...near, style: grey(0, 600) }))!);
    assert.ok(zoomedIn.length > 1000);
    assert.ok(new Set(zoomedIn).size > 20, 'zoomed in: the source pixels were read');
    await marked.clear();
  });

  test('palette rasters keep their classes and colours in every level', async () => {
    const file = path.join(data, 'lc-big.tif');
    gdalCli('gdal_translate', ['-q', '-outsize', '2100', '1150', '-r', 'near', fixture('lc.tif'), file]);
    const set = await ensureOverviewSet(file);
    assert.ok(set);
    const src = gdal.open(file);
    const classes = new Set(src.bands.get(1).pixels.read(0, 0, 2100, 1150));
    for (const level of set.levels) {
      const ds = gdal.open(level.path);
      const band = ds.bands.get(1);
      assert.equal(band.colorInterpretation, 'Palette');
      assert.equal(band.colorTable?.count(), src.bands.get(1).colorTable?.count());
      for (const v of band.pixels.read(0, 0, level.width, level.height)) assert.ok(classes.has(v), `class ${v} exists in the source`);
      ds.close();
    }
    src.close();
  });
});
