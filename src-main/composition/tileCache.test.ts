import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sourceIdentity } from '../gis-worker/sourceIdentity.js';
import { TileCache } from './tileCache.js';

const root = mkdtempSync(join(tmpdir(), 'mapwright-tilecache-'));
after(() => rmSync(root, { recursive: true, force: true }));

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

/** A producer that counts its calls. */
function producer(value: Uint8Array | null) {
  const calls = { n: 0 };
  const produce = async () => {
    calls.n++;
    await new Promise((r) => setTimeout(r, 5));
    return value;
  };
  return { calls, produce };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('TileCache', () => {
  it('produces once, then answers from memory', async () => {
    const cache = new TileCache();
    const p = producer(bytes(100));
    assert.deepEqual(await cache.cached(['t', 1], p.produce), bytes(100));
    assert.deepEqual(await cache.cached(['t', 1], p.produce), bytes(100));
    assert.equal(p.calls.n, 1);
    assert.equal(cache.stats.memoryHits, 1);
    assert.equal(cache.stats.misses, 1);
  });

  it('concurrent requests for one key share one production', async () => {
    const cache = new TileCache();
    const p = producer(bytes(10));
    const all = await Promise.all(Array.from({ length: 8 }, () => cache.cached(['same'], p.produce)));
    assert.equal(p.calls.n, 1);
    assert.equal(cache.stats.joined, 7);
    for (const a of all) assert.deepEqual(a, bytes(10));
  });

  it('caches null (nothing to draw) but not failures', async () => {
    const cache = new TileCache({ dir: join(root, 'nulls') });
    const p = producer(null);
    assert.equal(await cache.cached(['empty'], p.produce), null);
    assert.equal(await cache.cached(['empty'], p.produce), null);
    assert.equal(p.calls.n, 1);
    let failures = 0;
    const failing = async () => {
      failures++;
      throw new Error('render failed');
    };
    await assert.rejects(cache.cached(['bad'], failing), /render failed/);
    await assert.rejects(cache.cached(['bad'], failing), /render failed/);
    assert.equal(failures, 2, 'a failure is tried again');
    // A stored null is read back as null from disk too, not as empty bytes.
    await cache.settled();
    const fresh = new TileCache({ dir: join(root, 'nulls') });
    const again = producer(bytes(1));
    assert.equal(await fresh.cached(['empty'], again.produce), null);
    assert.equal(again.calls.n, 0);
  });

  it('the memory tier is bounded in bytes and evicts the least recently used', async () => {
    // Room for about three 1000-byte entries (each also costs a fixed overhead).
    const cache = new TileCache({ maxMemoryBytes: 3700, maxEntryBytes: 3700 });
    const p = (v: number) => async () => bytes(1000, v);
    await cache.cached(['a'], p(1));
    await cache.cached(['b'], p(2));
    await cache.cached(['c'], p(3));
    await cache.cached(['a'], p(9)); // a is now the most recent
    await cache.cached(['d'], p(4)); // evicts b, the least recent
    assert.ok(cache.stats.memoryBytes <= 3700, `memory ${cache.stats.memoryBytes}`);
    assert.equal(cache.stats.memoryEntries, 3);
    let produced = 0;
    const count = (v: number) => async () => (produced++, bytes(1000, v));
    assert.deepEqual(await cache.cached(['a'], count(0)), bytes(1000, 1), 'a kept');
    assert.deepEqual(await cache.cached(['d'], count(0)), bytes(1000, 4), 'd kept');
    assert.equal(produced, 0);
    assert.deepEqual(await cache.cached(['b'], count(5)), bytes(1000, 5), 'b was evicted and produced again');
    assert.equal(produced, 1);
  });

  it('an entry too large for the memory tier still goes to disk', async () => {
    const dir = join(root, 'large');
    const cache = new TileCache({ dir, maxMemoryBytes: 8000 });
    await cache.cached(['big'], async () => bytes(5000));
    assert.equal(cache.stats.memoryEntries, 0);
    await cache.settled();
    assert.equal(filesUnder(dir).length, 1);
  });

  it('a new cache on the same folder answers from disk (a restart keeps tiles)', async () => {
    const dir = join(root, 'disk');
    const first = new TileCache({ dir });
    await first.cached(['tile', 3, 4, 5], async () => bytes(300, 42));
    await first.settled();
    const second = new TileCache({ dir });
    const p = producer(bytes(1));
    assert.deepEqual(await second.cached(['tile', 3, 4, 5], p.produce), bytes(300, 42));
    assert.equal(p.calls.n, 0);
    assert.equal(second.stats.diskHits, 1);
    // And it is in memory from then on.
    assert.deepEqual(await second.cached(['tile', 3, 4, 5], p.produce), bytes(300, 42));
    assert.equal(second.stats.memoryHits, 1);
    // No temporary files are left behind.
    assert.ok(filesUnder(dir).every((f) => f.endsWith('.bin')));
  });

  it('the disk tier is trimmed, oldest first, when it passes its bound', async () => {
    const dir = join(root, 'trim');
    const cache = new TileCache({ dir, maxDiskBytes: 10_000, maxMemoryBytes: 1 });
    for (let i = 0; i < 8; i++) {
      await cache.cached(['t', i], async () => bytes(2000, i));
      await cache.settled();
      // Distinct ages, oldest first, whatever the file system's timestamp resolution.
      const file = filesUnder(dir).find((f) => f.endsWith(`${TileCache.key(['t', i])}.bin`))!;
      utimesSync(file, new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    }
    await cache.cached(['t', 8], async () => bytes(2000, 8));
    await cache.settled();
    const left = filesUnder(dir);
    const total = left.length * 2001;
    assert.ok(total <= 10_000, `disk bytes ${total}`);
    assert.ok(
      left.some((f) => f.endsWith(`${TileCache.key(['t', 8])}.bin`)),
      'the newest stays',
    );
    assert.ok(!left.some((f) => f.endsWith(`${TileCache.key(['t', 0])}.bin`)), 'the oldest went first');
  });

  it('keys differ for different parts, in order', () => {
    assert.notEqual(TileCache.key(['a', 1, 2]), TileCache.key(['a', 2, 1]));
    assert.notEqual(TileCache.key(['a', '1']), TileCache.key(['a', 1]));
    assert.equal(TileCache.key(['a', 1]), TileCache.key(['a', 1]));
  });
});

describe('sourceIdentity', () => {
  const dir = join(root, 'src');
  mkdirSync(dir);
  const file = join(dir, 'dem.tif');
  writeFileSync(file, 'pixels');

  it('changes when the file is rewritten in place (mtime or size), so cached tiles are not reused', async () => {
    const before = await sourceIdentity(file);
    assert.ok(before);
    assert.equal(await sourceIdentity(file), before, 'stable while the file is unchanged');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const touched = await sourceIdentity(file);
    assert.notEqual(touched, before, 'a new mtime is a new identity');
    writeFileSync(file, 'other pixels');
    assert.notEqual(await sourceIdentity(file), touched, 'a new size is a new identity');

    const cache = new TileCache();
    let renders = 0;
    const render = async () => (renders++, bytes(10));
    await cache.cached(['raster-tile', await sourceIdentity(file), 's', 1, 2, 3], render);
    await cache.cached(['raster-tile', await sourceIdentity(file), 's', 1, 2, 3], render);
    utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    await cache.cached(['raster-tile', await sourceIdentity(file), 's', 1, 2, 3], render);
    assert.equal(renders, 2);
  });

  it('an archive member is identified by the archive file; unknowable sources by null', async () => {
    const zip = join(dir, 'data.zip');
    writeFileSync(zip, 'zip bytes');
    const id = await sourceIdentity(`/vsizip/${zip}/inner/dem.tif`);
    assert.ok(id && id.includes(zip));
    assert.ok(await sourceIdentity(`GPKG:${file}:table`), 'a subdataset: its container file');
    assert.equal(await sourceIdentity('https://example.com/cog.tif'), null, 'network');
    assert.equal(await sourceIdentity('/vsicurl/https://example.com/cog.tif'), null, 'network');
    assert.equal(await sourceIdentity(join(dir, 'missing.tif')), null, 'missing');
    assert.equal(await sourceIdentity(dir), null, 'a folder');
  });
});
