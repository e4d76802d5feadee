import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { utmEpsgFor } from './utmZone.js';

describe('utmEpsgFor', () => {
  it('picks the UTM zone of the extent centre', () => {
    assert.equal(utmEpsgFor([-84.3, 33.9, -75.5, 36.6]), 32617, 'North Carolina → UTM 17N');
    assert.equal(utmEpsgFor([5.7, 49.4, 6.5, 50.2]), 32632, 'Luxembourg (centre 6.1° E) → UTM 32N, which starts at 6° E');
    assert.equal(utmEpsgFor([-58.5, -34.7, -58.3, -34.5]), 32721, 'Buenos Aires → UTM 21S');
    assert.equal(utmEpsgFor([179.5, -17, 180, -16]), 32760, 'Fiji: the last zone, southern hemisphere');
    assert.equal(utmEpsgFor([-10, -89, 10, -81]), 3031, 'Antarctica → polar stereographic');
  });
});
