import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flatGeometryType, geometryTypeName, summariseGeometryTypes } from './geometryType.js';

test('OGR codes, including 2.5D and ISO Z/M variants', () => {
  assert.equal(geometryTypeName(0), 'Unknown');
  assert.equal(geometryTypeName(3), 'Polygon');
  assert.equal(geometryTypeName(5), 'MultiLineString');
  assert.equal(geometryTypeName(0x80000001 | 0), 'Point'); // wkbPoint25D as a signed int32
  assert.equal(geometryTypeName(0x80000006), 'MultiPolygon');
  assert.equal(geometryTypeName(1002), 'LineString'); // LineString Z
  assert.equal(geometryTypeName(3006), 'MultiPolygon'); // MultiPolygon ZM
  assert.equal(geometryTypeName(100), 'None');
});

test('the flat type drops the 2.5D bit and the ISO Z/M thousands', () => {
  assert.equal(flatGeometryType(3), 3);
  assert.equal(flatGeometryType(0x80000003 | 0), 3); // wkbPolygon25D as a signed int32
  assert.equal(flatGeometryType(2005), 5); // MultiLineString M
  assert.equal(flatGeometryType(100), 100); // wkbNone
});

test('feature geometry names summarise to one drawable type', () => {
  assert.equal(summariseGeometryTypes(['POLYGON', 'MULTIPOLYGON', null]), 'MultiPolygon');
  assert.equal(summariseGeometryTypes(['POINT']), 'Point');
  assert.equal(summariseGeometryTypes(['LINESTRING Z', 'LINESTRING']), 'LineString');
  assert.equal(summariseGeometryTypes(['POINT', 'LINESTRING', 'MULTIPOLYGON']), 'Mixed');
  assert.equal(summariseGeometryTypes([null]), 'Unknown');
  assert.equal(summariseGeometryTypes([]), 'Unknown');
});
