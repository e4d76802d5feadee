import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAGE_SIZE, PageCache, pagesFor } from './pageCache.js';

const page = (p: number) =>
  Array.from({ length: PAGE_SIZE }, (_, i) => ({ fid: 1000 + p * PAGE_SIZE + i, values: { n: p * PAGE_SIZE + i } }));

describe('PageCache', () => {
  it('finds rows by index and by fid, and says which pages are missing', () => {
    const cache = new PageCache();
    cache.put(0, page(0));
    cache.put(2, page(2));
    assert.equal(cache.rowAt(5)?.fid, 1005);
    assert.equal(cache.rowAt(250), undefined);
    assert.equal(cache.indexOfFid(1000 + 401), 401);
    assert.deepEqual(cache.missing(150, 450), [1]);
    assert.deepEqual(pagesFor(0, -1), []);
  });

  it('gives the loaded fids of a range in either direction', () => {
    const cache = new PageCache();
    cache.put(0, page(0));
    assert.deepEqual(cache.fidsBetween(12, 10), [1010, 1011, 1012]);
    assert.deepEqual(cache.fidsBetween(198, 202), [1198, 1199], 'rows of unloaded pages are skipped');
  });

  it('drops the pages farthest from the view, and their fids', () => {
    const cache = new PageCache(3);
    for (const p of [0, 1, 2, 50, 51]) cache.put(p, page(p));
    cache.trim(50);
    assert.equal(cache.size, 3);
    assert.ok(cache.has(50) && cache.has(51) && cache.has(2));
    assert.equal(cache.indexOfFid(1000), undefined);
  });
});
