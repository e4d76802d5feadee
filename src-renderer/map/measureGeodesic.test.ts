import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathLength, polygonArea, segmentLengths, type LonLat } from './measureGeodesic.js';

/** WGS84 */
const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const B = A * (1 - F);

/**
 * The area of the ellipsoid between the equator and latitude φ over Δλ degrees of longitude
 * (closed form for a zone bounded by parallels): an independent check of a cell's area.
 */
function zoneArea(latDeg: number, dLonDeg: number): number {
  const s = Math.sin((latDeg * Math.PI) / 180);
  const e = Math.sqrt(E2);
  const q = s / (1 - E2 * s * s) + Math.log((1 + e * s) / (1 - e * s)) / (2 * e);
  return Math.PI * B * B * q * (dLonDeg / 360);
}

describe('measureGeodesic', () => {
  it('JFK → LHR as GeographicLib’s GeodSolve documents it (5551759.400 m)', () => {
    // GeodSolve(1): echo 40.6 -73.8 51.6 -0.5 | GeodSolve -i → … 5551759.400
    assert.ok(
      Math.abs(
        pathLength([
          [-73.8, 40.6],
          [-0.5, 51.6],
        ]) - 5551759.4,
      ) < 0.001,
    );
  });

  it('Wellington → Salamanca as the package README documents it (19959679.267 m)', () => {
    assert.ok(
      Math.abs(
        pathLength([
          [174.81, -41.32],
          [-5.5, 40.96],
        ]) - 19959679.267,
      ) < 0.001,
    );
  });

  it('one degree of latitude and of longitude at the equator (the ellipsoid’s own arcs)', () => {
    // A meridian degree from the equator: 110574.389 m; an equatorial degree: a·π/180.
    assert.ok(
      Math.abs(
        pathLength([
          [0, 0],
          [0, 1],
        ]) - 110574.389,
      ) < 0.01,
    );
    assert.ok(
      Math.abs(
        pathLength([
          [0, 0],
          [1, 0],
        ]) -
          (A * Math.PI) / 180,
      ) < 1e-6,
    );
  });

  it('sums segments along a path and is 0 for one point', () => {
    const path: LonLat[] = [
      [-79, 35],
      [-78, 35.5],
      [-77.5, 36],
    ];
    const parts = segmentLengths(path);
    assert.equal(parts.length, 2);
    assert.ok(Math.abs(pathLength(path) - (parts[0]! + parts[1]!)) < 1e-9);
    assert.equal(pathLength([[1, 2]]), 0);
    assert.equal(pathLength([]), 0);
  });

  it('a 1°×1° cell at the equator: 12,308.78 km², the zone formula’s value within 0.003 %', () => {
    const cell: LonLat[] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    const { area, perimeter } = polygonArea(cell);
    assert.ok(Math.abs(area - 12_308_778_361.47) < 1, `area ${area}`);
    // The cell's top edge is a geodesic, which bows a few metres poleward of the parallel.
    assert.ok(Math.abs(area / zoneArea(1, 1) - 1) < 3e-5, `vs zone ${zoneArea(1, 1)}`);
    assert.ok(Math.abs(perimeter - 443_770.917) < 0.01);
    assert.equal(polygonArea([...cell].reverse()).area, area, 'either winding');
  });

  it('an octant of the ellipsoid is an eighth of its area (GeographicLib’s test value)', () => {
    const { area } = polygonArea([
      [0, 90],
      [0, 0],
      [90, 0],
    ]);
    assert.ok(Math.abs(area - 63_758_202_715_511) < 1);
  });

  it('encloses nothing with fewer than three points', () => {
    assert.equal(polygonArea([]).area, 0);
    assert.equal(
      polygonArea([
        [0, 0],
        [1, 1],
      ]).area,
      0,
    );
  });
});
