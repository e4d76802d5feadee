import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeView, normaliseBounds, screenshotScale, type ViewSource } from './rendererQueries.js';

function view(center: [number, number], bounds: [number, number, number, number], zoom = 5.123456): ViewSource {
  return {
    getCenter: () => ({ lng: center[0], lat: center[1] }),
    getZoom: () => zoom,
    getBounds: () => ({ getWest: () => bounds[0], getSouth: () => bounds[1], getEast: () => bounds[2], getNorth: () => bounds[3] }),
    getBearing: () => 12.345,
    getPitch: () => 0,
  };
}

describe('describeView', () => {
  it('answers centre, zoom, bounds, bearing and pitch, rounded', () => {
    assert.deepEqual(describeView(view([6.123456789, 46.5], [5.5, 46, 6.7, 47])), {
      center: [6.123457, 46.5],
      zoom: 5.12,
      bounds: [5.5, 46, 6.7, 47],
      bearing: 12.3,
      pitch: 0,
    });
  });

  it('wraps a centre panned past the antimeridian back into ±180', () => {
    const v = describeView(view([370, 10], [365, 5, 375, 15]));
    assert.deepEqual(v.center, [10, 10]);
    assert.deepEqual(v.bounds, [5, 5, 15, 15]);
  });
});

describe('normaliseBounds', () => {
  it('gives the whole world for a view wider than 360°', () => {
    assert.deepEqual(normaliseBounds(-100, -100, 300, 100, 100), [-180, -90, 180, 90]);
  });

  it('clamps a view across the antimeridian to its centre’s side, never west > east', () => {
    assert.deepEqual(normaliseBounds(170, -10, 190, 10, 178), [170, -10, 180, 10]);
    const [w, , e] = normaliseBounds(170, -10, 190, 10, 182);
    assert.ok(w <= e);
    assert.deepEqual([w, e], [-180, -170]);
  });
});

describe('screenshotScale', () => {
  it('keeps a PNG that fits and shrinks one that does not, by the square root with a margin', () => {
    assert.equal(screenshotScale(500_000, 1_000_000), 1);
    const scale = screenshotScale(4_000_000, 1_000_000);
    assert.ok(scale < 0.5 && scale > 0.4, String(scale));
  });
});
