import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from './testing/fakeOverpass.js';
import { bboxAreaKm2, buildOverpassQuery, OsmBBox, OsmTag, OverpassAnswer, qlString } from './osmQuery.js';

describe('osm.download boundary: bbox, tags, Overpass QL', () => {
  it('builds one nwr statement with every tag, the bbox as south,west,north,east, and the geometry recursion', () => {
    const ql = buildOverpassQuery([13.4, 52.51, 13.42, 52.53], [{ key: 'amenity', value: 'cafe' }, { key: 'name' }]);
    assert.equal(ql, '[out:json][timeout:90];\nnwr["amenity"="cafe"]["name"](52.51,13.4,52.53,13.42);\nout body;\n>;\nout skel qt;');
  });

  it('keeps hostile keys and values inside their quotes: the lexer reads back exactly what was given', () => {
    const hostile = [
      { key: 'amenity', value: 'cafe"];out;' },
      { key: 'name"](area:1);out body;//', value: 'x\\"]' },
      { key: 'k', value: "it's \\ a [test] ); out meta;" },
    ];
    const ql = buildOverpassQuery([0, 0, 0.1, 0.1], hostile);
    const parsed = parseQuery(ql);
    assert.deepEqual(parsed.filters, hostile);
    assert.deepEqual(parsed.bbox, [0, 0, 0.1, 0.1]);
    assert.equal(parsed.rest, 'out body;\n>;\nout skel qt;', 'nothing escaped its string');
    assert.equal(qlString('a"b\\c'), '"a\\"b\\\\c"');
  });

  it('refuses control characters, empty or long tags, and unknown fields', () => {
    assert.equal(OsmTag.safeParse({ key: 'name', value: 'a\nout;' }).success, false);
    assert.equal(OsmTag.safeParse({ key: '' }).success, false);
    assert.equal(OsmTag.safeParse({ key: 'k'.repeat(256) }).success, false);
    assert.equal(OsmTag.safeParse({ key: 'k', value: 'v', raw: '[out:xml]' }).success, false);
    assert.equal(OsmTag.safeParse({ key: 'addr:street', value: 'Straße "Süd"' }).success, true);
  });

  it('accepts a valid bbox; refuses swapped, out-of-range or too large ones with the reason', () => {
    assert.equal(OsmBBox.safeParse([13.4, 52.51, 13.42, 52.53]).success, true);
    const swapped = OsmBBox.safeParse([13.42, 52.51, 13.4, 52.53]);
    assert.match(swapped.error!.issues[0]!.message, /west must be less than east/);
    assert.equal(OsmBBox.safeParse([13.4, 91, 13.42, 92]).success, false);
    assert.equal(OsmBBox.safeParse([-181, 0, 0, 1]).success, false);
    const large = OsmBBox.safeParse([0, 0, 5, 5]);
    assert.match(large.error!.issues[0]!.message, /km².*smaller area/);
    assert.equal(OsmBBox.safeParse([Number.NaN, 0, 1, 1]).success, false);
  });

  it('computes the bbox area on the sphere', () => {
    // One degree at the equator is about 111.2 km.
    assert.ok(Math.abs(bboxAreaKm2([0, 0, 1, 1]) - 12_364) < 20);
    assert.ok(bboxAreaKm2([0, 60, 1, 61]) < bboxAreaKm2([0, 0, 1, 1]) / 1.9);
  });

  it('checks the Overpass answer shape', () => {
    assert.equal(OverpassAnswer.safeParse({ elements: [{ type: 'node', id: 1, lat: 1, lon: 2 }] }).success, true);
    assert.equal(OverpassAnswer.safeParse({ elements: [{ type: 'node', id: 1, lat: '1', lon: 2 }] }).success, false);
    assert.equal(OverpassAnswer.safeParse({ elements: [{ type: 'way', id: 1 }] }).success, false);
    assert.equal(OverpassAnswer.safeParse({ features: [] }).success, false);
  });
});
