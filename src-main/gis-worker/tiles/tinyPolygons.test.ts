import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inflateTinyPolygons } from './tinyPolygons.js';

const square = (x: number, y: number, d: number) => ({
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [x, y],
        [x + d, y],
        [x + d, y + d],
        [x, y + d],
        [x, y],
      ],
    ],
  },
});

describe('tiny polygons stay visible on zoomed-out tiles', () => {
  it('a polygon below the size becomes a square of that size at its centre; larger ones are untouched', () => {
    const tiny = square(10, 50, 0.001);
    const big = square(0, 40, 5);
    const point = { geometry: { type: 'Point', coordinates: [1, 2] } };
    const before = JSON.stringify(big);
    assert.equal(inflateTinyPolygons([tiny, big, point], 3), 1);
    assert.equal(JSON.stringify(big), before);
    const ring = (tiny.geometry.coordinates as number[][][])[0]!;
    const xs = ring.map((p) => p[0]!);
    // 8 units of a 4096-unit z3 tile: 360 / 8 / 4096 * 8 degrees of longitude.
    assert.ok(Math.abs(Math.max(...xs) - Math.min(...xs) - (360 / 8 / 4096) * 8) < 1e-9);
    assert.ok(Math.abs((Math.max(...xs) + Math.min(...xs)) / 2 - 10.0005) < 1e-9, 'centred on the polygon');
  });

  it('at a zoom where the polygon is large enough nothing changes', () => {
    const tiny = square(10, 50, 0.001);
    assert.equal(inflateTinyPolygons([tiny], 16), 0);
  });
});
