import { stat } from 'node:fs/promises';
import type { Dataset } from 'gdal-async';
import type { BBox } from '../../src-shared/domain/layer.js';
import { parseSource } from '../../src-shared/domain/source.js';
import { bandRange, type BandRange } from './bandStats.js';
import { cutOfView, type CumulativeCut } from './style/cumulativeCut.js';
import { BadInputError } from './errors.js';
import { gdal } from './gdal.js';
import { openSource } from './openSource.js';
import { rasterGeoref, type RasterGeoref } from './rasterGeoref.js';
import { mercatorExtent } from './tileMath.js';

/**
 * An open raster and what tiles need to know about it, shared by every tile of that source.
 * GDAL datasets are not thread-safe, and gdal-async only locks the datasets it is handed:
 * a band view and its parent, used from two pool threads, would race inside GDAL. So all GDAL
 * work on one source goes through `exclusive`, one operation at a time.
 */
export class RasterEntry {
  private chain: Promise<unknown> = Promise.resolve();
  /** VRT views of band lists ('1', '4,3,2'), because GDAL 3.6's warp utility cannot pick bands. */
  private readonly views = new Map<string, Promise<Dataset>>();
  private readonly ranges = new Map<number, Promise<BandRange>>();
  private readonly cuts = new Map<string, Promise<CumulativeCut | null>>();
  private closed = false;

  constructor(
    readonly path: string,
    readonly ds: Dataset,
    readonly georef: RasterGeoref,
    /** null when the raster cannot be placed on the map (no CRS or no geotransform). */
    readonly extent3857: BBox | null,
    readonly bandCount: number,
  ) {}

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Caches a computation per key; a failure is not cached (the file may be replaced and retried). */
  private memo<K, T>(map: Map<K, Promise<T>>, key: K, make: () => Promise<T>): Promise<T> {
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

  /** The band's min/max, computed once per source: every tile must use the same stretch. */
  bandRange(band: number): Promise<BandRange> {
    return this.memo(this.ranges, band, () => this.exclusive(async () => bandRange(await this.ds.bands.getAsync(band), band, this.path)));
  }

  /** The band's cumulative cut (e.g. 2–98 %) from GDAL's histogram, once per source. */
  bandCut(band: number, lower: number, upper: number): Promise<CumulativeCut | null> {
    return this.memo(this.cuts, `${band}:${lower}:${upper}`, () =>
      this.exclusive(async () => cutOfView(await this.view([band]), band, lower, upper, this.path)),
    );
  }

  /** Caller must hold `exclusive`. */
  bandView(band: number): Promise<Dataset> {
    return this.view([band]);
  }

  /** A VRT of the given bands, in that order. Caller must hold `exclusive`. */
  view(bands: readonly number[]): Promise<Dataset> {
    return this.memo(this.views, bands.join(','), () => gdal.translateAsync('', this.ds, ['-of', 'VRT', ...bands.flatMap((b) => ['-b', String(b)])]));
  }

  /** Waits for queued work, then frees GDAL handles; views first, they reference the dataset. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.exclusive(async () => {
      for (const v of this.views.values()) {
        const view = await v.catch(() => null);
        view?.close();
      }
      this.ds.close();
    });
  }
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

  constructor(private readonly capacity = 8) {}

  async use<T>(source: string, fn: (entry: RasterEntry) => Promise<T>): Promise<T> {
    const path = source;
    const stamp = await fileStamp(source);
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
      const fresh: Slot = { stamp, entry: openEntry(path), users: 0, evicted: false };
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

async function openEntry(path: string): Promise<RasterEntry> {
  const opened = await openSource(path);
  if (opened.kind !== 'raster') {
    opened.ds.close();
    throw new BadInputError(`${path} is a vector layer; it has no pixels to render as raster tiles`);
  }
  const georef = await rasterGeoref(opened.ds);
  const extent3857 = georef.extent4326 ? mercatorExtent(georef.extent4326) : null;
  const bandCount = await opened.ds.bands.countAsync();
  return new RasterEntry(path, opened.ds, georef, extent3857, bandCount);
}

async function fileStamp(source: string): Promise<string> {
  const { path } = parseSource(source);
  if (path.startsWith('/vsi')) return 'vsi';
  try {
    const st = await stat(path);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    // openSource reports the missing file properly.
    return 'missing';
  }
}
