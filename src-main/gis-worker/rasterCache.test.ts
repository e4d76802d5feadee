import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { GreyRasterStyle } from '../../src-shared/style/styleModel.js';
import { RasterCache } from './rasterCache.js';
import { renderRasterTile } from './renderRasterTile.js';
import { fixture, skipReason } from './testSupport.js';

const style: GreyRasterStyle = { type: 'grey', band: 1, min: null, max: null };
const caches: RasterCache[] = [];
after(async () => {
  for (const c of caches) await c.clear();
});

function cache(readers: number): RasterCache {
  const c = new RasterCache(4, readers);
  caches.push(c);
  return c;
}

/** A 4 × 4 block of z13 tiles over the multi-band UTM fixture (Recife, 34.87° W 8.0° S). */
const n = 2 ** 13;
const cx = Math.floor(((-34.87 + 180) / 360) * n);
const cy = Math.floor(((1 - Math.log(Math.tan((-8 * Math.PI) / 180) + 1 / Math.cos((-8 * Math.PI) / 180)) / Math.PI) / 2) * n);
const tiles = Array.from({ length: 16 }, (_, i) => ({ z: 13, x: cx - 2 + (i % 4), y: cy - 2 + Math.floor(i / 4) }));

describe('RasterCache readers', { skip: skipReason }, () => {
  const l7 = fixture('L7_ETMs.tif');

  test('tiles of one raster render on several readers at once, with the same pixels as one at a time', async () => {
    const one = cache(1);
    const sequential: (Buffer | null)[] = [];
    for (const t of tiles) sequential.push(await renderRasterTile(one, { source: l7, ...t, style }));
    assert.ok(sequential.filter(Boolean).length >= 4, 'the block covers the raster');
    assert.equal(await one.use(l7, async (e) => e.readerCount), 1);

    const pool = cache(3);
    const concurrent = await Promise.all(tiles.map((t) => renderRasterTile(pool, { source: l7, ...t, style })));
    assert.equal(await pool.use(l7, async (e) => e.readerCount), 3, 'busy readers make the pool grow to its bound');
    assert.deepEqual(concurrent, sequential);
  });

  test('band statistics are computed once, whatever reader asks', async () => {
    const pool = cache(2);
    const ranges = await pool.use(l7, (e) => Promise.all([e.bandRange(1), e.bandRange(1), e.bandRange(1)]));
    assert.deepEqual(ranges[0], ranges[1]);
    assert.equal(ranges[0], ranges[2], 'the same memoised answer');
  });
});
