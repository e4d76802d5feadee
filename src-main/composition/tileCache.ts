import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** What a cache key is made of: plain values, hashed in order. */
export type CacheKeyPart = string | number | boolean | null;

export interface TileCacheOptions {
  /** Folder of the disk tier (main passes `<home>/cache/tiles`); without it, memory only. */
  dir?: string | null;
  /** Bound of the memory tier in bytes (default 64 MiB). */
  maxMemoryBytes?: number;
  /** Bound of the disk tier in bytes (default 512 MiB); the oldest files go first when it is passed. */
  maxDiskBytes?: number;
  /** Larger entries skip the memory tier, so one cannot push out many (default an eighth of it). */
  maxEntryBytes?: number;
}

export interface TileCacheStats {
  memoryHits: number;
  diskHits: number;
  misses: number;
  /** Callers that waited for a production already under way instead of starting another. */
  joined: number;
  memoryEntries: number;
  memoryBytes: number;
}

interface MemoryEntry {
  value: Uint8Array | null;
  bytes: number;
}

/** Bytes an entry costs beyond its body (key, map slot, object). */
const ENTRY_OVERHEAD = 200;
/** Disk files start with a tag byte: a stored null (an empty tile) is not an empty body. */
const TAG_NULL = 0;
const TAG_BYTES = 1;

/**
 * A cache of produced bytes — raster tiles, vector tiles, any format — in two tiers: a memory
 * LRU bounded in bytes, and files under `dir`. The caller names an entry by its key parts,
 * which must say everything the bytes depend on (for a tile: the source's identity from
 * gis-worker/sourceIdentity.ts, a hash of the style or fields, z/x/y); a changed source or
 * style is a new key, and the old entries simply age out. `null` (nothing to draw) is cached like bytes;
 * a failure is not. Concurrent requests for one key share one production.
 */
export class TileCache {
  private readonly memory = new Map<string, MemoryEntry>();
  private readonly inflight = new Map<string, Promise<Uint8Array | null>>();
  private memoryBytes = 0;
  private readonly maxMemoryBytes: number;
  private readonly maxDiskBytes: number;
  private readonly maxEntryBytes: number;
  private readonly dir: string | null;
  /** Bytes on disk as far as this process knows: scanned once, then counted as written. */
  private diskBytes: Promise<number> | null = null;
  private trimming: Promise<void> | null = null;
  private diskFailed = false;
  private readonly writes = new Set<Promise<void>>();
  private counts = { memoryHits: 0, diskHits: 0, misses: 0, joined: 0 };

  constructor(options: TileCacheOptions = {}) {
    this.dir = options.dir ?? null;
    this.maxMemoryBytes = options.maxMemoryBytes ?? 64 * 1024 * 1024;
    this.maxDiskBytes = options.maxDiskBytes ?? 512 * 1024 * 1024;
    this.maxEntryBytes = options.maxEntryBytes ?? this.maxMemoryBytes / 8;
  }

  /** The key of some parts: a hash of their JSON, so any value may be a part. */
  static key(parts: readonly CacheKeyPart[]): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  /**
   * The bytes for `keyParts`: from memory, else from disk, else from `produce()` — called at
   * most once at a time per key, its answer then kept in both tiers.
   */
  cached(keyParts: readonly CacheKeyPart[], produce: () => Promise<Uint8Array | null>): Promise<Uint8Array | null> {
    const key = TileCache.key(keyParts);
    const hit = this.memory.get(key);
    if (hit) {
      // Map order is recency order.
      this.memory.delete(key);
      this.memory.set(key, hit);
      this.counts.memoryHits++;
      return Promise.resolve(hit.value);
    }
    const running = this.inflight.get(key);
    if (running) {
      this.counts.joined++;
      return running;
    }
    const fresh = this.load(key, produce);
    this.inflight.set(key, fresh);
    const forget = () => {
      if (this.inflight.get(key) === fresh) this.inflight.delete(key);
    };
    fresh.then(forget, forget);
    return fresh;
  }

  get stats(): TileCacheStats {
    return { ...this.counts, memoryEntries: this.memory.size, memoryBytes: this.memoryBytes };
  }

  /** Empties the memory tier (the disk tier stays); for tests and benchmarks. */
  clearMemory(): void {
    this.memory.clear();
    this.memoryBytes = 0;
  }

  /** Resolves when pending disk writes and trims are done; for tests and shutdown. */
  async settled(): Promise<void> {
    await Promise.all([...this.writes]);
    await this.trimming;
  }

  private async load(key: string, produce: () => Promise<Uint8Array | null>): Promise<Uint8Array | null> {
    const stored = await this.readDisk(key);
    if (stored !== undefined) {
      this.counts.diskHits++;
      this.remember(key, stored);
      return stored;
    }
    this.counts.misses++;
    const value = await produce();
    this.remember(key, value);
    this.writeDisk(key, value);
    return value;
  }

  private remember(key: string, value: Uint8Array | null): void {
    const bytes = (value?.byteLength ?? 0) + ENTRY_OVERHEAD;
    if (bytes > this.maxEntryBytes) return;
    const old = this.memory.get(key);
    if (old) {
      this.memory.delete(key);
      this.memoryBytes -= old.bytes;
    }
    this.memory.set(key, { value, bytes });
    this.memoryBytes += bytes;
    for (const [k, e] of this.memory) {
      if (this.memoryBytes <= this.maxMemoryBytes) break;
      this.memory.delete(k);
      this.memoryBytes -= e.bytes;
    }
  }

  private fileOf(key: string): string {
    return join(this.dir!, key.slice(0, 2), `${key}.bin`);
  }

  /** undefined: not on disk (or unreadable). */
  private async readDisk(key: string): Promise<Uint8Array | null | undefined> {
    if (!this.dir || this.diskFailed) return undefined;
    const file = this.fileOf(key);
    let raw: Buffer;
    try {
      raw = await readFile(file);
    } catch {
      return undefined;
    }
    if (raw.length === 0 || (raw[0] !== TAG_NULL && raw[0] !== TAG_BYTES)) return undefined;
    // Touched, so trimming removes what was used least recently.
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
    return raw[0] === TAG_NULL ? null : new Uint8Array(raw.buffer, raw.byteOffset + 1, raw.byteLength - 1);
  }

  private writeDisk(key: string, value: Uint8Array | null): void {
    if (!this.dir || this.diskFailed) return;
    const write = (async () => {
      const file = this.fileOf(key);
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      const body = value === null ? Buffer.from([TAG_NULL]) : Buffer.concat([Buffer.from([TAG_BYTES]), value]);
      try {
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        await writeFile(tmp, body, { mode: 0o600 });
        // Whole or nothing: a reader never sees a half-written file.
        await rename(tmp, file);
      } catch (err) {
        await rm(tmp, { force: true }).catch(() => undefined);
        // A full or read-only disk: keep serving from memory, and say it once.
        this.diskFailed = true;
        console.error(`[tile-cache] disk tier off: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      const total = (await this.diskTotal()) + body.length;
      this.diskBytes = Promise.resolve(total);
      if (total > this.maxDiskBytes && !this.trimming) {
        this.trimming = this.trimDisk().finally(() => (this.trimming = null));
      }
    })();
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }

  private diskTotal(): Promise<number> {
    this.diskBytes ??= this.listDisk().then((files) => files.reduce((s, f) => s + f.size, 0));
    return this.diskBytes;
  }

  private async listDisk(): Promise<{ file: string; size: number; mtimeMs: number }[]> {
    const out: { file: string; size: number; mtimeMs: number }[] = [];
    for (const sub of await readdir(this.dir!).catch(() => [] as string[])) {
      const folder = join(this.dir!, sub);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const file = join(folder, name);
        const st = await stat(file).catch(() => null);
        if (!st) continue;
        if (name.endsWith('.bin')) out.push({ file, size: st.size, mtimeMs: st.mtimeMs });
        // A write cut short by a crash; anything this old is not being written any more.
        else if (name.endsWith('.tmp') && Date.now() - st.mtimeMs > 3_600_000) await rm(file, { force: true }).catch(() => undefined);
      }
    }
    return out;
  }

  /** Down to 80 % of the bound, least recently used first. */
  private async trimDisk(): Promise<void> {
    const files = (await this.listDisk()).sort((a, b) => a.mtimeMs - b.mtimeMs);
    let total = files.reduce((s, f) => s + f.size, 0);
    for (const f of files) {
      if (total <= this.maxDiskBytes * 0.8) break;
      await rm(f.file, { force: true }).catch(() => undefined);
      total -= f.size;
    }
    this.diskBytes = Promise.resolve(total);
  }
}
