import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatLength, metresPerPixel, niceLength, planScaleBar } from './scaleBar.js';

describe('print scale bar', () => {
  it('metres per pixel: the equator at zoom 0 is 512 px for 40,075 km; halved per zoom level and by cos(lat)', () => {
    assert.ok(Math.abs(metresPerPixel(0, 0) - 78271.517) < 0.01);
    assert.ok(Math.abs(metresPerPixel(0, 3) - 78271.517 / 8) < 0.01);
    assert.ok(Math.abs(metresPerPixel(60, 0) - 78271.517 / 2) < 0.01);
  });
  it('round lengths are 1, 2 or 5 × 10ⁿ, never above the value', () => {
    assert.deepEqual([0.7, 1, 1.9, 2, 4.99, 5, 9.9, 37, 1234, 99_999].map(niceLength), [0.5, 1, 1, 2, 2, 5, 5, 20, 1000, 50_000]);
  });
  it('labels in m below a kilometre, km from there', () => {
    assert.deepEqual([5, 500, 1000, 2000, 50_000].map(formatLength), ['5 m', '500 m', '1 km', '2 km', '50 km']);
  });
  it('the bar fits its box: 100 m per pixel and 300 px give 20 km on 200 px', () => {
    assert.deepEqual(planScaleBar(100, 300), { metres: 20_000, pixels: 200, label: '20 km' });
    const bar = planScaleBar(3.7, 354)!;
    assert.ok(bar.pixels <= 354 && bar.pixels > 354 / 5, `${bar.pixels}`);
  });
  it('no bar when the scale is unknown', () => {
    assert.equal(planScaleBar(0, 300), null);
    assert.equal(planScaleBar(Number.NaN, 300), null);
    assert.equal(planScaleBar(Number.POSITIVE_INFINITY, 300), null);
  });
});
