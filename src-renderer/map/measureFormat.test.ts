import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatArea, formatDistance } from './measureFormat.js';

describe('measureFormat', () => {
  it('writes metres below a kilometre, then kilometres with fewer digits as they grow', () => {
    assert.equal(formatDistance(0), '0.00 m');
    assert.equal(formatDistance(12.345), '12.35 m');
    assert.equal(formatDistance(999.94), '999.9 m');
    assert.equal(formatDistance(1234.5), '1.235 km');
    assert.equal(formatDistance(56_789), '56.79 km');
    assert.equal(formatDistance(5_551_759.4), '5,552 km');
  });
  it('writes m² below a hectare, ha below a km², then km²', () => {
    assert.equal(formatArea(50), '50.00 m²');
    assert.equal(formatArea(9_999), '9,999.0 m²');
    assert.equal(formatArea(10_000), '1.000 ha');
    assert.equal(formatArea(250_000), '25.00 ha');
    assert.equal(formatArea(1_000_000), '1.000 km²');
    assert.equal(formatArea(12_308_778_361.47), '12,309 km²');
  });
});
