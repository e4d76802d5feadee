import { availableParallelism } from 'node:os';
import type { Dataset } from 'gdal-async';
import type { BBox } from '../../src-shared/domain/layer.js';
import { bandRange, type BandRange } from './bandStats.js';
import { cutOfView, type CumulativeCut } from './style/cumulativeCut.js';
import { BadInputError, CancelledError } from './errors.js';
import { gdal } from './gdal.js';
import { openSource } from './openSource.js';
import { sourceIdentity } from './sourceIdentity.js';
import { cachedOverviews, ensureOverviewSet, wantsOverviews, type OverviewSet } from './overviewCache.js';
import { rasterGeoref, type RasterGeoref } from './rasterGeoref.js';
import { mercatorExtent } from './tileMath.js';

/**
 * Readers per source: a few tiles of one raster render at once, bounded by the thread pool.
 * `MAPWRIGHT_RASTER_READERS` overrides it (1 = one tile at a time, as before; for benchmarks).
 */
export const DEFAULT_READERS = readersFromEnv() ?? Math.max(2, Math.min(4, availableParallelism()));

function readersFromEnv(): number | null {
  const n = Number(process.env.MAPWRIGHT_RASTER_READERS);
  return Number.isInteger(n) && n >= 1 && n <= 16 ? n : null;
}

/**
 * One set of GDAL handles on a raster — the source and, once built, its cached overview
 * levels — with the band views made from them. GDAL datasets are not thread-safe, and
 * gdal-async only locks the datasets it is handed: a band view and its parent, used from two
 * pool threads, would race inside GDAL. So all work on one reader goes through `exclusive`,
 * one operation at a time; concurrency comes from having several readers per source.
 */
export class RasterReader {
  private chain: Promise<unknown> = Promise.resolve();
  /** VRT views of band lists ('1', '4,3,2') per level, because GDAL 3.6's warp utility cannot pick bands. */
  private readonly views = new Map<string, Promise<Dataset>>();
  private readonly levels = new Map<number, Promise<Dataset>>();
  private readonly categorical = new Map<string, Promise<boolean>>();
  /** Every dataset this reader opened, dependants (views) after what they reference. */
  private readonly opened: Dataset[] = [];
  private closed = false;

  constructor(
    readonly ds: Dataset,
    /** The level file of an overview factor (2, 4…), from the entry's overview set. */
    private readonly levelFile: (factor: number) => string | null,
  ) {
    this.opened.push(ds);
    liveReaders.add(this);
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** A VRT of the given bands, in that order, at an overview factor (1: full resolution). Caller holds `exclusive`. */
  view(bands: readonly number[], factor = 1): Promise<Dataset> {
    return memo(this.views, `${factor}:${bands.join(',')}`, async () => {
      const base = factor === 1 ? this.ds : await this.level(factor);
      return this.track(await gdal.translateAsync('', base, ['-of', 'VRT', ...bands.flatMap((b) => ['-b', String(b)])]));
    });
  }

  /** Whether a view holds classes (a palette), which must never be blended. Caller holds `exclusive`. */
  isCategorical(bands: readonly number[], factor = 1): Promise<boolean> {
    return memo(this.categorical, `${factor}:${bands.join(',')}`, async () => {
      const view = await this.view(bands, factor);
      return (await (await view.bands.getAsync(1)).colorInterpretationAsync) === 'Palette';
    });
  }

  private level(factor: number): Promise<Dataset> {
    return memo(this.levels, factor, () => {
      const file = this.levelFile(factor);
      if (!file) return Promise.reject(new Error(`No overview level ${factor}`));
      // The worker's own cache file, derived from a source already judged by openSource.
      return gdal.openAsync(file, 'r').then((ds) => this.track(ds));
    });
  }

  /** Waits for queued work, then frees GDAL handles; views first, they reference the datasets. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.exclusive(async () => {
      // Let views still being made land in `opened` first.
      await Promise.all([...this.views.values(), ...this.levels.values()].map((p) => p.catch(() => null)));
      this.closeNow();
    });
  }

  /**
   * Closes everything at once, newest first: a VRT view holds a pointer into the dataset it
   * was made from, and GDAL frees a dataset on close whoever still points at it.
   */
  closeNow(): void {
    liveReaders.delete(this);
    for (const ds of this.opened.splice(0).reverse()) {
      try {
        ds.close();
      } catch {
        // Already closed.
      }
    }
  }

  private track(ds: Dataset): Dataset {
    if (this.closed && !liveReaders.has(this)) ds.close();
    else this.opened.push(ds);
    return ds;
  }
}

/**
 * Readers not closed yet. At exit gdal-async closes every open dataset in the order they were
 * opened — a source before the views made from it, whose pointers then dangle (heap corruption,
 * an abort on the way out) — so they are closed here first, views before sources.
 */
const liveReaders = new Set<RasterReader>();
process.once('exit', () => {
  for (const r of [...liveReaders]) r.closeNow();
});

/** Caches a computation per key; a failure is not cached (the file may be replaced and retried). */
function memo<K, T>(map: Map<K, Promise<T>>, key: K, make: () => Promise<T>): Promise<T> {
  let p = map.get(key);
  if (!p) {
    const fresh = make();
    map.set(key, fresh);
    fresh.catch(() => {
      if (map.get(key) === fresh) map.delete(key);
    });
    p = fresh;
  }
  return p;
}

interface ReaderSlot {
  reader: Promise<RasterReader>;
  /** Operations queued on or running in this reader. */
  pending: number;
}

/**
 * An open raster and what tiles need to know about it, shared by every tile of that source:
 * a small pool of readers (tiles of one raster render concurrently), the band statistics
 * (computed once, from the source itself, so every tile stretches alike whether or not
 * overviews exist yet), and the cached overviews used when zoomed out.
 */
export class RasterEntry {
  private readonly slots: ReaderSlot[];
  private readonly ranges = new Map<number, Promise<BandRange>>();
  private readonly cuts = new Map<string, Promise<CumulativeCut | null>>();
  private overviewSet: OverviewSet | null;
  private overviewBuild: Promise<OverviewSet | null> | null = null;
  /** Pixel size of the full-resolution raster in Web Mercator metres (the finer axis). */
  private readonly nativeResolution: number | null;
  private noMoreReaders = false;
  private closed = false;

  constructor(
    readonly path: string,
    first: Dataset,
    readonly georef: RasterGeoref,
    /** null when the raster cannot be placed on the map (no CRS or no geotransform). */
    readonly extent3857: BBox | null,
    readonly bandCount: number,
    /** Large and without overviews of its own: zoomed-out reads go through the cache's. */
    readonly wantsOverviews = false,
    overviews: OverviewSet | null = null,
    private readonly maxReaders = DEFAULT_READERS,
  ) {
    this.overviewSet = overviews;
    this.slots = [{ reader: Promise.resolve(this.newReader(first)), pending: 0 }];
    this.nativeResolution = extent3857
      ? Math.min((extent3857[2] - extent3857[0]) / georef.width, (extent3857[3] - extent3857[1]) / georef.height)
      : null;
  }

  /** Readers opened so far (at most `maxReaders`). */
  get readerCount(): number {
    return this.slots.length;
  }

  private newReader(ds: Dataset): RasterReader {
    return new RasterReader(ds, (factor) => this.overviewSet?.levels.find((l) => l.factor === factor)?.path ?? null);
  }

  /**
   * Runs `fn` holding one reader: the least busy, or a new one while there are fewer than
   * `maxReaders` and all are busy.
   */
  async withReader<T>(fn: (reader: RasterReader) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error(`${this.path} was closed`);
    let slot = this.slots.reduce((a, b) => (b.pending < a.pending ? b : a));
    if (slot.pending > 0 && this.slots.length < this.maxReaders && !this.noMoreReaders) {
      const fresh: ReaderSlot = { reader: Promise.resolve(null as unknown as RasterReader), pending: 0 };
      fresh.reader = this.openReader().catch((err: unknown) => {
        // Another handle could not be opened (a file limit): share the first one from now on.
        console.error(`[gis-worker] another reader for ${this.path} could not be opened:`, err instanceof Error ? err.message : err);
        this.noMoreReaders = true;
        const i = this.slots.indexOf(fresh);
        if (i > 0) this.slots.splice(i, 1);
        return this.slots[0]!.reader;
      });
      this.slots.push(fresh);
      slot = fresh;
    }
    slot.pending++;
    try {
      const reader = await slot.reader;
      return await reader.exclusive(() => fn(reader));
    } finally {
      slot.pending--;
    }
  }

  private async openReader(): Promise<RasterReader> {
    const opened = await openSource(this.path);
    if (opened.kind !== 'raster') {
      opened.ds.close();
      throw new BadInputError(`${this.path} is no longer a raster`);
    }
    return this.newReader(opened.ds);
  }

  /** The band's min/max, computed once per source: every tile must use the same stretch. */
  bandRange(band: number): Promise<BandRange> {
    return memo(this.ranges, band, () => this.withReader(async (r) => bandRange(await r.ds.bands.getAsync(band), band, this.path)));
  }

  /** The band's cumulative cut (e.g. 2–98 %) from GDAL's histogram, once per source. */
  bandCut(band: number, lower: number, upper: number): Promise<CumulativeCut | null> {
    return memo(this.cuts, `${band}:${lower}:${upper}`, () =>
      this.withReader(async (r) => cutOfView(await r.view([band]), band, lower, upper, this.path)),
    );
  }

  /**
   * The overview factor a read at `resolution` (Web Mercator metres per pixel) should use:
   * 1 for full resolution, else the coarsest level still at least as fine as asked. A
   * zoomed-out read of a large raster without overviews waits for the cache's to be built
   * (once, shared) rather than resample the whole raster; if they cannot be built, 1.
   * Rasters with overviews of their own read those through gdalwarp, which picks the level.
   */
  async levelFor(resolution: number, signal?: AbortSignal): Promise<number> {
    if (!this.wantsOverviews || !this.nativeResolution) return 1;
    const ratio = resolution / this.nativeResolution;
    if (ratio < 2) return 1;
    const set = this.overviewSet ?? (await untilAborted(this.buildOverviews(), signal));
    let factor = 1;
    for (const l of set?.levels ?? []) if (l.factor <= ratio * (1 + 1e-9)) factor = l.factor;
    return factor;
  }

  /** Builds (or finds) the cache's overviews once; a failure is logged and reads fall back to full resolution. */
  private buildOverviews(): Promise<OverviewSet | null> {
    // No signal: a panned-away tile must not stop a build other tiles will need.
    this.overviewBuild ??= ensureOverviewSet(this.path).then(
      (set) => (this.overviewSet = set),
      (err: unknown) => {
        console.error(`[gis-worker] overviews for ${this.path} could not be built:`, err instanceof Error ? err.message : err);
        return null;
      },
    );
    return this.overviewBuild;
  }

  /** Waits for queued work, then frees every reader's GDAL handles. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.slots.map(async (s) => (await s.reader.catch(() => null))?.close()));
  }
}

/** `p`, or a CancelledError as soon as `signal` aborts (p keeps running for whoever else waits). */
function untilAborted<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

interface Slot {
  stamp: string;
  entry: Promise<RasterEntry>;
  users: number;
  evicted: boolean;
}

/**
 * A small LRU of open rasters: opening a GeoTIFF and computing its statistics for every
 * tile would dominate rendering time. A file replaced on disk (new mtime or size) is reopened.
 */
export class RasterCache {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly capacity = 8,
    /** GDAL handles per source, so tiles of one raster render concurrently. */
    private readonly readers = DEFAULT_READERS,
  ) {}

  async use<T>(source: string, fn: (entry: RasterEntry) => Promise<T>): Promise<T> {
    const path = source;
    // A file rewritten in place is a new entry; a network source has no stamp to compare.
    const stamp = (await sourceIdentity(source)) ?? 'unknown';
    let slot = this.slots.get(path);
    if (slot && slot.stamp !== stamp) {
      this.evict(path, slot);
      slot = undefined;
    }
    if (slot) {
      // Map order is recency order.
      this.slots.delete(path);
      this.slots.set(path, slot);
    } else {
      const fresh: Slot = { stamp, entry: openEntry(path, this.readers), users: 0, evicted: false };
      fresh.entry.catch(() => {
        if (this.slots.get(path) === fresh) this.slots.delete(path);
      });
      this.slots.set(path, fresh);
      slot = fresh;
    }
    // Counted before any await, so a concurrent trim cannot close it under us.
    slot.users++;
    this.trim();
    try {
      return await fn(await slot.entry);
    } finally {
      slot.users--;
      if (slot.evicted && slot.users === 0) void closeSlot(slot);
      this.trim();
    }
  }

  /** Closes everything not in use; for tests and shutdown. */
  async clear(): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [path, slot] of [...this.slots]) {
      this.evict(path, slot);
      if (slot.users === 0) closing.push(closeSlot(slot));
    }
    await Promise.all(closing);
  }

  get size(): number {
    return this.slots.size;
  }

  private evict(path: string, slot: Slot): void {
    if (this.slots.get(path) === slot) this.slots.delete(path);
    slot.evicted = true;
    if (slot.users === 0) void closeSlot(slot);
  }

  private trim(): void {
    for (const [path, slot] of this.slots) {
      if (this.slots.size <= this.capacity) return;
      if (slot.users === 0) this.evict(path, slot);
    }
  }
}

async function closeSlot(slot: Slot): Promise<void> {
  try {
    await (await slot.entry).close();
  } catch {
    // Never opened, or already closed: nothing to free.
  }
}

async function openEntry(path: string, readers: number): Promise<RasterEntry> {
  const opened = await openSource(path);
  if (opened.kind !== 'raster') {
    opened.ds.close();
    throw new BadInputError(`${path} is a vector layer; it has no pixels to render as raster tiles`);
  }
  try {
    const georef = await rasterGeoref(opened.ds);
    const extent3857 = georef.extent4326 ? mercatorExtent(georef.extent4326) : null;
    const bandCount = await opened.ds.bands.countAsync();
    const wants = extent3857 !== null && (await wantsOverviews(opened.ds));
    const existing = wants ? await cachedOverviews(path) : null;
    return new RasterEntry(path, opened.ds, georef, extent3857, bandCount, wants, existing, readers);
  } catch (err) {
    opened.ds.close();
    throw err;
  }
}
