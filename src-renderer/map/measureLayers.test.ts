import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureStore } from '../store/measureStore.js';
import type { LonLat } from './measureGeodesic.js';
import { measureFeatures } from './measureLayers.js';

const parts = (fc: ReturnType<typeof measureFeatures>) => fc.features.map((f) => f.properties!.part as string);
const square: LonLat[] = [
  [0, 0],
  [1, 0],
  [1, 1],
];

describe('measureFeatures', () => {
  it('draws a path, a dashed stretch to the cursor, the vertices and the label at the cursor', () => {
    const fc = measureFeatures('distance', square.slice(0, 2), [2, 2], '1 km');
    assert.deepEqual(parts(fc), ['path', 'rubber', 'vertex', 'vertex', 'label']);
    assert.deepEqual(fc.features[4]!.geometry, { type: 'Point', coordinates: [2, 2] });
  });
  it('closes a finished area back to its first point and fills it', () => {
    const fc = measureFeatures('area', square, null, '1 ha');
    assert.deepEqual(parts(fc), ['area', 'path', 'vertex', 'vertex', 'vertex', 'label']);
    assert.deepEqual((fc.features[1]!.geometry as GeoJSON.LineString).coordinates, [...square, [0, 0]]);
  });
  it('draws nothing for no points', () => {
    assert.deepEqual(measureFeatures('distance', [], [1, 1], null).features, []);
  });
});

describe('measureStore', () => {
  it('finishes only a measurement with enough points; the next click starts a new one', () => {
    const s = () => measureStore.getState();
    s().setActive(true);
    s().setMode('area');
    s().addPoint([0, 0]);
    s().addPoint([1, 0]);
    s().finish();
    assert.equal(s().finished, false, 'two points enclose no area');
    s().addPoint([1, 1]);
    s().finish();
    assert.equal(s().finished, true);
    s().addPoint([5, 5]);
    assert.deepEqual(s().points, [[5, 5]]);
    s().setActive(false);
    assert.deepEqual(s().points, []);
  });
});
