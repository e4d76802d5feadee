import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { EMPTY_TILE } from './dataRoutes.js';

describe('data routes', () => {
  it('answers tiles outside a raster with a fully transparent PNG', () => {
    const png = PNG.sync.read(EMPTY_TILE);
    assert.deepEqual([...png.data], [0, 0, 0, 0]);
  });
});
