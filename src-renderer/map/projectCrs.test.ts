import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import { projectCrs, WGS84_CRS } from './projectCrs.js';

const layer = (order: number, crs: { epsg: number | null; geographic: boolean } | null) =>
  ({ id: `L${order}`, order, info: { crs: crs && { ...crs, name: null } } }) as unknown as Layer;

describe('projectCrs', () => {
  it('is the CRS of the bottom-most layer with an EPSG code', () => {
    const layers = [layer(2, { epsg: 4267, geographic: true }), layer(0, null), layer(1, { epsg: 32617, geographic: false })];
    assert.deepEqual(projectCrs(layers), { epsg: 32617, geographic: false });
  });
  it('passes over a CRS without a code and falls back to WGS 84', () => {
    assert.deepEqual(projectCrs([layer(0, { epsg: null, geographic: false })]), WGS84_CRS);
    assert.deepEqual(projectCrs([]), WGS84_CRS);
  });
});
