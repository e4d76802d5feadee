import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_FEATURES_BY_ID } from '../../src-shared/bridge/attributeContract.js';
import { geometryBBox, HighlightCache } from './highlightCache.js';

const point = (id: number, x: number, y: number) => ({
  type: 'Feature' as const,
  id,
  geometry: { type: 'Point', coordinates: [x, y] },
  properties: {},
});

describe('geometryBBox', () => {
  it('spans every coordinate of any geometry type', () => {
    assert.deepEqual(
      geometryBBox({
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [0, 0],
              [2, 0],
              [2, 3],
              [0, 0],
            ],
          ],
          [
            [
              [-1, 5],
              [0, 5],
              [0, 6],
              [-1, 5],
            ],
          ],
        ],
      }),
      [-1, 0, 2, 6],
    );
    assert.deepEqual(
      geometryBBox({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1, 1] },
          {
            type: 'LineString',
            coordinates: [
              [3, -2],
              [4, 0],
            ],
          },
        ],
      }),
      [1, -2, 4, 1],
    );
    assert.equal(geometryBBox(null), null);
  });
});

describe('HighlightCache', () => {
  it('fetches only what it has not got, and forgets what is no longer selected', () => {
    const cache = new HighlightCache();
    assert.deepEqual(cache.plan('A', [1, 2]).missing, [1, 2]);
    cache.add('A', [point(1, 0, 0), point(2, 10, 5)]);
    assert.deepEqual(cache.resolve([1, 2]).bbox, [0, 0, 10, 5]);
    const next = cache.plan('A', [2, 3]);
    assert.deepEqual(next.missing, [3]);
    cache.add('A', [point(3, -4, 1)]);
    const { features, bbox } = cache.resolve(next.wanted);
    assert.deepEqual(
      features.map((f) => f.id),
      [2, 3],
    );
    assert.deepEqual(bbox, [-4, 1, 10, 5]);
    assert.deepEqual(cache.plan('A', [1]).missing, [1], 'fid 1 was forgotten');
  });

  it('starts afresh for another layer and drops late answers for the old one', () => {
    const cache = new HighlightCache();
    cache.plan('A', [1]);
    cache.add('A', [point(1, 0, 0)]);
    assert.deepEqual(cache.plan('B', [1]).missing, [1]);
    cache.add('A', [point(1, 0, 0)]);
    assert.equal(cache.resolve([1]).features.length, 0);
  });

  it('draws at most MAX_FEATURES_BY_ID and says the selection is capped', () => {
    const cache = new HighlightCache();
    const plan = cache.plan(
      'A',
      Array.from({ length: MAX_FEATURES_BY_ID + 5 }, (_, i) => i),
    );
    assert.equal(plan.wanted.length, MAX_FEATURES_BY_ID);
    assert.equal(plan.capped, true);
  });
});
