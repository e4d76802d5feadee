import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Dataset } from 'gdal-async';
import { parseSource } from '../../src-shared/domain/source.js';
import { CACHE_DIR_ENV, workerCacheDir } from './cacheDir.js';
import { BadInputError, CancelledError, gdalReason } from './errors.js';
import { gdal } from './gdal.js';
import { openSource } from './openSource.js';
import { processAlive } from './processAlive.js';
import type { ProgressFn } from './progressThrottle.js';
import { guardSource } from './sourceGuard.js';

/**
 * Overviews for large rasters that have none, built in the worker's cache and never in the
 * source: the source file and its folder are only read. One entry per source identity (path,
 * size, mtime), a folder `<cache>/overviews/<key>/` holding
 *   - `ovr_2.tif`, `ovr_4.tif`, … one tiled, compressed, georeferenced GeoTIFF per level
 *     (each level averaged from the one before; palette rasters take the nearest pixel);
 *   - `overviews.vrt`, the source as a VRT whose bands list those files as `<Overview>`s, so
 *     anything that opens this path through GDAL reads the overviews when zoomed out;
 *   - `overviews.json`, the manifest, written last: an entry without it is not finished.
 * A build works in `<key>.tmp-<pid>-<random>/` and is renamed into place when complete, so a
 * killed worker leaves no half entry (its leftovers are removed by the next build).
 *
 * Why not GDAL's `buildOverviews` into an external `.ovr`: gdal-async's progress trampoline
 * always answers "continue" (the JS callback runs later on the event loop and cannot stop
 * GDAL), so such a build can only be stopped by killing the worker. Here the levels are
 * computed strip by strip with GDAL's own averaging (RasterIO resampling, nodata excluded),
 * the signal is checked and progress reported between strips, and it is about as fast.
 */

/** Build only when a side is longer than this (smaller rasters read in full are fast enough). */
export const OVERVIEW_MIN_SIDE = 2048;
/** Levels are added until the level's longer side fits in one tile. */
const SMALLEST_LEVEL_SIDE = 256;
/** Output rows per strip: one block row of the level file (256 × 256 tiles). */
const STRIP_ROWS = 256;
const MANIFEST = 'overviews.json';
const VRT = 'overviews.vrt';
const MANIFEST_VERSION = 1;

export interface OverviewLevel {
  /** Reduction from the full resolution: 2, 4, 8… */
  factor: number;
  /** Absolute path of the level's GeoTIFF. */
  path: string;
  width: number;
  height: number;
}

export interface OverviewSet {
  /** The VRT that reads the source with these overviews. */
  vrt: string;
  /** Finest first. */
  levels: OverviewLevel[];
}

export interface EnsureOverviewsOptions {
  /** Stops this caller's wait; the build itself stops when every caller waiting for it has stopped. */
  signal?: AbortSignal;
  progress?: ProgressFn;
}

interface SourceIdentity {
  path: string;
  size: number;
  mtimeMs: number;
}

interface Manifest {
  version: number;
  source: SourceIdentity;
  width: number;
  height: number;
  levels: { factor: number; file: string; width: number; height: number }[];
}

/**
 * The path to read `source` through: the cache's VRT with overviews (built now if missing),
 * or `source` itself when it needs none — small, already has internal or external overviews,
 * or is not a plain local raster file (an archive member, a subdataset, a network source).
 * Concurrent callers for the same source share one build; progress goes to each of them.
 * Throws CancelledError when `signal` aborts, BadInputError when the source cannot be read.
 */
export async function ensureOverviews(source: string, opts: EnsureOverviewsOptions = {}): Promise<string> {
  const set = await ensureOverviewSet(source, opts);
  return set?.vrt ?? source;
}

/** As `ensureOverviews`, with the levels; null when the source needs no overviews. */
export async function ensureOverviewSet(source: string, opts: EnsureOverviewsOptions = {}): Promise<OverviewSet | null> {
  if (opts.signal?.aborted) throw new CancelledError();
  // Judged again even when the cache answers: the entry leads to the source's pixels.
  guardSource(source);
  const target = await cacheTarget(source);
  if (!target) return null;
  const existing = await readEntry(target.root, target.key, target.identity);
  if (existing) return existing;
  return joinBuild(target, source, opts);
}

/** The overviews already built for the source as it is now, without building; null when none. */
export async function cachedOverviews(source: string): Promise<OverviewSet | null> {
  const target = await cacheTarget(source);
  return target ? readEntry(target.root, target.key, target.identity) : null;
}

/**
 * Whether an open raster would get overviews: a side longer than OVERVIEW_MIN_SIDE and no
 * overviews of its own (GDAL counts internal ones and an external `.ovr` alike).
 */
export async function wantsOverviews(ds: Dataset): Promise<boolean> {
  const size = await ds.rasterSizeAsync;
  if (size.x <= OVERVIEW_MIN_SIDE && size.y <= OVERVIEW_MIN_SIDE) return false;
  const count = await ds.bands.countAsync();
  if (count === 0) return false;
  const band = await ds.bands.getAsync(1);
  return (await band.overviews.countAsync()) === 0;
}

/** The cache folder, or null when the worker runs without one (some tests): overviews are then off. */
function cacheRoot(): string | null {
  return process.env[CACHE_DIR_ENV] ? workerCacheDir('overviews') : null;
}

interface Target {
  root: string;
  key: string;
  identity: SourceIdentity;
}

async function cacheTarget(source: string): Promise<Target | null> {
  const { path: file, sublayer } = parseSource(source);
  // Only plain files: a member of an archive, a subdataset or a URL is left as it is.
  if (sublayer !== null || !path.isAbsolute(file) || file.startsWith('/vsi')) return null;
  const identity = await identify(file);
  if (!identity) return null;
  const root = cacheRoot();
  if (!root) return null;
  return { root, key: identityKey(identity), identity };
}

async function identify(file: string): Promise<SourceIdentity | null> {
  try {
    const st = await stat(file);
    return st.isFile() ? { path: file, size: st.size, mtimeMs: st.mtimeMs } : null;
  } catch {
    return null; // openSource says what is wrong with it
  }
}

function identityKey(id: SourceIdentity): string {
  return createHash('sha256').update(`${id.path}\0${id.size}\0${id.mtimeMs}`).digest('hex').slice(0, 32);
}

async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    const m = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    if (m.version !== MANIFEST_VERSION || !Array.isArray(m.levels) || m.levels.length === 0) return null;
    return m;
  } catch {
    return null;
  }
}

async function readEntry(root: string, key: string, identity: SourceIdentity): Promise<OverviewSet | null> {
  const dir = path.join(root, key);
  const m = await readManifest(dir);
  if (!m || m.source.path !== identity.path || m.source.size !== identity.size || m.source.mtimeMs !== identity.mtimeMs) return null;
  return {
    vrt: path.join(dir, VRT),
    levels: m.levels.map((l) => ({ factor: l.factor, path: path.join(dir, path.basename(l.file)), width: l.width, height: l.height })),
  };
}

// ---------------------------------------------------------------------------------------------
// Shared builds

interface Build {
  promise: Promise<OverviewSet | null>;
  controller: AbortController;
  waiters: number;
  listeners: Set<ProgressFn>;
}

const builds = new Map<string, Build>();

/** Builds started by this process (for tests: concurrent callers must share one). */
export const overviewBuildCount = { started: 0 };

function joinBuild(target: Target, source: string, opts: EnsureOverviewsOptions): Promise<OverviewSet | null> {
  // Aborted while the cache was being looked at: join nothing (an abort event would not come again).
  if (opts.signal?.aborted) return Promise.reject(new CancelledError());
  let build = builds.get(target.key);
  // A build everyone gave up on is stopping: a newcomer starts afresh rather than share its cancel.
  if (!build || build.controller.signal.aborted) {
    const controller = new AbortController();
    const listeners = new Set<ProgressFn>();
    const fresh: Build = {
      controller,
      listeners,
      waiters: 0,
      promise: buildEntry(target, source, controller.signal, (f, m) => {
        for (const l of listeners) l(f, m);
      }),
    };
    void fresh.promise
      .finally(() => {
        if (builds.get(target.key) === fresh) builds.delete(target.key);
      })
      .catch(() => undefined);
    builds.set(target.key, fresh);
    build = fresh;
  }
  const shared = build;
  shared.waiters++;
  if (opts.progress) shared.listeners.add(opts.progress);
  return new Promise<OverviewSet | null>((resolve, reject) => {
    let done = false;
    const leave = () => {
      if (done) return false;
      done = true;
      opts.signal?.removeEventListener('abort', onAbort);
      if (opts.progress) shared.listeners.delete(opts.progress);
      shared.waiters--;
      return true;
    };
    const onAbort = () => {
      if (!leave()) return;
      // Nobody else wants it: stop at the next strip and clean up.
      if (shared.waiters === 0) shared.controller.abort();
      reject(new CancelledError());
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    shared.promise.then(
      (v) => leave() && resolve(v),
      (e: unknown) => leave() && reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The build

const GMF_ALL_VALID = 0x01;
const GMF_ALPHA = 0x04;
const GMF_NODATA = 0x08;

type Typed = Uint8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

const ARRAYS: Record<string, new (n: number) => Typed> = {
  Byte: Uint8Array,
  UInt16: Uint16Array,
  Int16: Int16Array,
  UInt32: Uint32Array,
  Int32: Int32Array,
  Float32: Float32Array,
  Float64: Float64Array,
};

async function buildEntry(target: Target, source: string, signal: AbortSignal, progress: ProgressFn): Promise<OverviewSet | null> {
  overviewBuildCount.started++;
  const opened = await openSource(source);
  if (opened.kind !== 'raster') {
    opened.ds.close();
    throw new BadInputError(`${source} is a vector layer; it has no pixels to build overviews of`);
  }
  const src = opened.ds;
  const tmp = path.join(target.root, `${target.key}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  let published = false;
  try {
    if (!(await wantsOverviews(src))) return null;
    const plan = await planBuild(src);
    if (!plan) return null;
    await removeOrphans(target.root);
    await mkdir(tmp, { recursive: true, mode: 0o700 });
    const levels = await writeLevels(src, plan, tmp, signal, progress);
    await writeVrt(src, path.join(tmp, VRT), levels, plan.bandCount);
    // The source changed while it was read: these pixels may mix both versions.
    const after = await identify(target.identity.path);
    if (!after || identityKey(after) !== target.key)
      throw new BadInputError(`${target.identity.path} changed while its overviews were being built; try again`);
    const manifest: Manifest = {
      version: MANIFEST_VERSION,
      source: target.identity,
      width: plan.width,
      height: plan.height,
      levels: levels.map((l) => ({ factor: l.factor, file: path.basename(l.path), width: l.width, height: l.height })),
    };
    await writeFile(path.join(tmp, MANIFEST), JSON.stringify(manifest));
    const dir = path.join(target.root, target.key);
    try {
      await rename(tmp, dir);
      published = true;
    } catch {
      // Another worker finished the same entry first: use theirs.
    }
    const entry = await readEntry(target.root, target.key, target.identity);
    if (!entry) throw new Error(`The overviews of ${target.identity.path} could not be stored in the cache`);
    progress(1, 'Overviews built');
    await removeSuperseded(target);
    return entry;
  } finally {
    src.close();
    if (!published) await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
}

interface Plan {
  width: number;
  height: number;
  bandCount: number;
  dataType: string;
  resampling: string;
  geoTransform: number[] | null;
  srsWkt: string | null;
  bands: { noData: number | null; colorInterpretation: string | null; colorTable: unknown }[];
  levels: { factor: number; width: number; height: number }[];
}

async function planBuild(src: Dataset): Promise<Plan | null> {
  const size = await src.rasterSizeAsync;
  const bandCount = await src.bands.countAsync();
  const bands: Plan['bands'] = [];
  let dataType: string | null = null;
  for (let b = 1; b <= bandCount; b++) {
    const band = await src.bands.getAsync(b);
    const type = await band.dataTypeAsync;
    if (!type || !ARRAYS[type]) return null; // complex or 64-bit integer pixels: left as they are
    if (dataType !== null && type !== dataType) return null; // one GeoTIFF holds one pixel type
    // A real mask (not nodata, not an alpha band) is not carried into the levels: left as it is.
    if ((band.getMaskFlags() & (GMF_ALL_VALID | GMF_ALPHA | GMF_NODATA)) === 0) return null;
    dataType = type;
    const colorInterpretation = await band.colorInterpretationAsync;
    bands.push({
      noData: await band.noDataValueAsync,
      colorInterpretation,
      colorTable: colorInterpretation === 'Palette' ? band.colorTable : null,
    });
  }
  if (!dataType) return null;
  const levels: Plan['levels'] = [];
  for (let factor = 2; ; factor *= 2) {
    const width = Math.ceil(size.x / factor);
    const height = Math.ceil(size.y / factor);
    levels.push({ factor, width, height });
    if (Math.max(width, height) <= SMALLEST_LEVEL_SIDE) break;
  }
  const srs = await src.srsAsync;
  return {
    width: size.x,
    height: size.y,
    bandCount,
    dataType,
    // Classes must never be blended; everything else is averaged, nodata left out.
    resampling: bands[0]?.colorInterpretation === 'Palette' ? 'NearestNeighbor' : 'Average',
    geoTransform: await src.geoTransformAsync,
    srsWkt: srs ? srs.toWKT() : null,
    bands,
    levels,
  };
}

async function writeLevels(src: Dataset, plan: Plan, dir: string, signal: AbortSignal, progress: ProgressFn): Promise<OverviewLevel[]> {
  const Arr = ARRAYS[plan.dataType]!;
  const float = plan.dataType.startsWith('Float');
  const options = [
    'TILED=YES',
    'BLOCKXSIZE=256',
    'BLOCKYSIZE=256',
    'COMPRESS=DEFLATE',
    'ZLEVEL=1',
    `PREDICTOR=${float ? 3 : 2}`,
    'BIGTIFF=IF_SAFER',
  ];
  if (plan.bands[0]?.colorInterpretation === 'Palette') options.push('PHOTOMETRIC=PALETTE');
  // Work is counted in pixels read: the first level reads the whole source, each next one a quarter.
  let total = 0;
  let prevPixels = plan.width * plan.height;
  for (const l of plan.levels) {
    total += prevPixels;
    prevPixels = l.width * l.height;
  }
  let done = 0;
  const out: OverviewLevel[] = [];
  let input: Dataset = src;
  let inW = plan.width;
  let inH = plan.height;
  try {
    for (const [i, level] of plan.levels.entries()) {
      const file = path.join(dir, `ovr_${level.factor}.tif`);
      const message = `Building overviews (level ${i + 1} of ${plan.levels.length})`;
      const ds = await gdal.drivers.get('GTiff').createAsync(file, level.width, level.height, plan.bandCount, plan.dataType, options);
      let pending: Promise<unknown> | null = null;
      try {
        describeLevel(ds, plan, level);
        // Two buffers: the next strip is read while the last one is written (different datasets).
        const buffers = [new Arr(level.width * STRIP_ROWS), new Arr(level.width * STRIP_ROWS)];
        let turn = 0;
        for (let row = 0; row < level.height; row += STRIP_ROWS) {
          const rows = Math.min(STRIP_ROWS, level.height - row);
          const y0 = Math.round((row * inH) / level.height);
          const y1 = Math.round(((row + rows) * inH) / level.height);
          for (let b = 1; b <= plan.bandCount; b++) {
            if (signal.aborted) throw new CancelledError();
            const buf = buffers[turn++ % 2]!;
            const data = rows === STRIP_ROWS ? buf : buf.subarray(0, level.width * rows);
            try {
              await input.bands.get(b).pixels.readAsync(0, y0, inW, y1 - y0, data, {
                buffer_width: level.width,
                buffer_height: rows,
                resampling: plan.resampling,
              });
            } catch (err) {
              throw new BadInputError(
                `Cannot read the pixels of ${src.description} to build its overviews: ${gdalReason(err, src.description)}`,
              );
            }
            await pending;
            pending = ds.bands.get(b).pixels.writeAsync(0, row, level.width, rows, data);
          }
          done += (y1 - y0) * inW;
          progress(Math.min(0.99, done / total), message);
        }
        await pending;
        await ds.flushAsync();
      } finally {
        // A write still running on a cancel or failure must end before its dataset is closed.
        await pending?.catch(() => undefined);
        ds.close();
      }
      if (input !== src) input.close();
      input = await gdal.openAsync(file);
      inW = level.width;
      inH = level.height;
      out.push({ factor: level.factor, path: file, width: level.width, height: level.height });
    }
  } finally {
    if (input !== src) input.close();
  }
  return out;
}

/** A level carries the source's georeferencing (scaled), nodata, colours and palette. */
function describeLevel(ds: Dataset, plan: Plan, level: { width: number; height: number }): void {
  if (plan.geoTransform) {
    const [x0 = 0, dx = 1, rx = 0, y0 = 0, ry = 0, dy = 1] = plan.geoTransform;
    const sx = plan.width / level.width;
    const sy = plan.height / level.height;
    ds.geoTransform = [x0, dx * sx, rx * sy, y0, ry * sx, dy * sy];
  }
  if (plan.srsWkt) ds.srs = gdal.SpatialReference.fromWKT(plan.srsWkt);
  for (const [i, info] of plan.bands.entries()) {
    const band = ds.bands.get(i + 1);
    if (info.noData !== null) band.noDataValue = info.noData;
    if (info.colorTable) band.colorTable = info.colorTable as typeof band.colorTable;
    else if (info.colorInterpretation && info.colorInterpretation !== 'Undefined') {
      try {
        band.colorInterpretation = info.colorInterpretation;
      } catch {
        // Not every interpretation can be stored in a GeoTIFF; the pixels are what matter.
      }
    }
  }
}

/** The source as a VRT, each band listing the level files as its overviews. */
async function writeVrt(src: Dataset, file: string, levels: OverviewLevel[], bandCount: number): Promise<void> {
  const vrt = await gdal.translateAsync(file, src, ['-of', 'VRT']);
  vrt.close();
  let xml = await readFile(file, 'utf8');
  for (let b = 1; b <= bandCount; b++) {
    const overviews = levels
      .map(
        (l) =>
          `    <Overview>\n      <SourceFilename relativeToVRT="1">${path.basename(l.path)}</SourceFilename>\n      <SourceBand>${b}</SourceBand>\n    </Overview>\n`,
      )
      .join('');
    const start = xml.search(new RegExp(`<VRTRasterBand\\b[^>]*\\bband="${b}"`));
    const close = start < 0 ? -1 : xml.indexOf('</VRTRasterBand>', start);
    if (close < 0) throw new Error(`Unexpected VRT written for ${src.description}: no band ${b}`);
    const lineStart = xml.lastIndexOf('\n', close) + 1;
    xml = xml.slice(0, lineStart) + overviews + xml.slice(lineStart);
  }
  await writeFile(file, xml);
}

/** Leftovers of builds whose worker was killed (its pid is gone). */
async function removeOrphans(root: string): Promise<void> {
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const m = /\.tmp-(\d+)-[0-9a-f]+$/.exec(name);
    if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
    await rm(path.join(root, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Entries of earlier versions of the same file (it was rewritten): nobody can ask for them again. */
async function removeSuperseded(target: Target): Promise<void> {
  for (const name of await readdir(target.root).catch(() => [] as string[])) {
    if (name === target.key || name.includes('.tmp-')) continue;
    const dir = path.join(target.root, name);
    const m = await readManifest(dir);
    if (m && m.source.path === target.identity.path) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
