import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { drawToolsFor, toReshapeGeometry } from './editGeometry.js';

describe('drawToolsFor', () => {
  it("offers the tools of the layer's geometry; Multi* layers draw single geometries", () => {
    assert.deepEqual(drawToolsFor('MultiPolygon'), ['polygon']);
    assert.deepEqual(drawToolsFor('Polygon'), ['polygon']);
    assert.deepEqual(drawToolsFor('LineString'), ['linestring']);
    assert.deepEqual(drawToolsFor('MultiPoint'), ['point']);
  });
  it('offers every tool for an unknown or mixed type', () => {
    assert.deepEqual(drawToolsFor(null), ['point', 'linestring', 'polygon']);
    assert.deepEqual(drawToolsFor('GeometryCollection'), ['point', 'linestring', 'polygon']);
  });
});

describe('toReshapeGeometry', () => {
  const square = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 0],
  ];
  it('unwraps a multi-part geometry of one part', () => {
    assert.deepEqual(toReshapeGeometry({ type: 'MultiPolygon', coordinates: [[square]] }), {
      mode: 'polygon',
      geometry: { type: 'Polygon', coordinates: [square] },
    });
    assert.deepEqual(toReshapeGeometry({ type: 'MultiPoint', coordinates: [[3, 4]] }), {
      mode: 'point',
      geometry: { type: 'Point', coordinates: [3, 4] },
    });
  });
  it('rounds to the precision terra-draw accepts and drops the repeated points rounding makes', () => {
    const r = toReshapeGeometry({
      type: 'LineString',
      coordinates: [
        [1.12345678912345, 2],
        [1.1234567891234, 2],
        [3, 4],
      ],
    });
    assert.deepEqual(r, {
      mode: 'linestring',
      geometry: {
        type: 'LineString',
        coordinates: [
          [1.123456789, 2],
          [3, 4],
        ],
      },
    });
  });
  it('refuses several parts, holes and what it cannot edit, with a reason', () => {
    const reason = (g: unknown) => (toReshapeGeometry(g) as { error?: string }).error ?? '';
    assert.match(reason({ type: 'MultiPolygon', coordinates: [[square], [square]] }), /several parts/);
    assert.match(reason({ type: 'Polygon', coordinates: [square, square] }), /holes/);
    assert.match(reason({ type: 'GeometryCollection', geometries: [] }), /cannot be reshaped/);
    assert.match(reason(null), /no geometry/);
  });
});
