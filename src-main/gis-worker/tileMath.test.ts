import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intersects, lonLatToMercator, MERCATOR_HALF, mercatorExtent, mercatorToLonLat, tileBounds } from './tileMath.js';
import { assertClose } from './testSupport.js';

test('tile 0/0/0 is the whole Web Mercator square', () => {
  assert.deepEqual(tileBounds(0, 0, 0), [-MERCATOR_HALF, -MERCATOR_HALF, MERCATOR_HALF, MERCATOR_HALF]);
});

test('XYZ rows count down from the north', () => {
  assert.deepEqual(tileBounds(1, 0, 0), [-MERCATOR_HALF, 0, 0, MERCATOR_HALF]);
  assert.deepEqual(tileBounds(1, 1, 1), [0, -MERCATOR_HALF, MERCATOR_HALF, 0]);
  assert.equal(tileBounds(1, 2, 0), null);
  assert.equal(tileBounds(3, 0, 8), null);
});

test('lon/lat to Web Mercator: known values', () => {
  assertClose(lonLatToMercator(0, 0)[0], 0, 1e-9, 'x at 0°');
  assertClose(lonLatToMercator(0, 0)[1], 0, 1e-6, 'y at 0°');
  assertClose(lonLatToMercator(180, 0)[0], MERCATOR_HALF, 1e-6, 'x at 180°');
  // EPSG:3857 northing of 45°N, as `cs2cs EPSG:4326 EPSG:3857` gives it.
  assertClose(lonLatToMercator(0, 45)[1], 5621521.486, 1e-3, 'y at 45°');
  // Beyond the square's edge latitudes clamp instead of going to infinity.
  assertClose(lonLatToMercator(0, 90)[1], MERCATOR_HALF, 1e-3, 'y at the pole');
  assert.deepEqual(
    mercatorExtent([-180, -90, 180, 90]).map((v) => Math.round(v)),
    [-20037508, -20037508, 20037508, 20037508],
  );
});

test('intersects needs shared area', () => {
  assert.ok(intersects([0, 0, 2, 2], [1, 1, 3, 3]));
  assert.ok(!intersects([0, 0, 1, 1], [1, 0, 2, 1]));
  assert.ok(!intersects([0, 0, 1, 1], [5, 5, 6, 6]));
});

test('mercatorToLonLat undoes lonLatToMercator', () => {
  for (const [lon, lat] of [
    [0, 0],
    [13.4, 52.5],
    [-122.4, 37.8],
    [179.9, -84],
  ] as const) {
    const [x, y] = lonLatToMercator(lon, lat);
    const [lon2, lat2] = mercatorToLonLat(x, y);
    assert.ok(Math.abs(lon2 - lon) < 1e-9 && Math.abs(lat2 - lat) < 1e-9, `${lon},${lat} → ${lon2},${lat2}`);
  }
});
