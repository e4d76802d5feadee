import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import { fittableBounds, unionExtent } from './bbox.js';

const withExtent = (extent4326: Layer['info']['extent4326']) => ({ info: { extent4326 } }) as Layer;

describe('bbox helpers', () => {
  it('unions usable extents and skips missing ones', () => {
    assert.equal(unionExtent([]), null);
    assert.deepEqual(unionExtent([withExtent([0, 0, 1, 1]), withExtent(null), withExtent([-5, 2, 0.5, 9])]), [-5, 0, 1, 9]);
  });
  it('clamps to Web Mercator and widens antimeridian boxes', () => {
    assert.deepEqual(fittableBounds([-200, -90, 10, 90]), [
      [-180, -85.051129],
      [10, 85.051129],
    ]);
    assert.deepEqual(fittableBounds([170, -10, -170, 10]), [
      [-180, -10],
      [180, 10],
    ]);
    assert.equal(fittableBounds([Number.NaN, 0, 1, 1]), null);
  });
});
