import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QA_MENTION, QaReport } from '../../src-shared/domain/qaReport.js';
import { compareExtents } from './extentSanity.js';
import { planarMeasures } from './planarMeasures.js';
import { type QaFacts, qaReportOf } from './qaReportOf.js';

const UTM = { epsg: 32632, name: 'WGS 84 / UTM zone 32N', geographic: false };
const WGS84 = { epsg: 4326, name: 'WGS 84', geographic: true };

function facts(over: Partial<QaFacts> = {}): QaFacts {
  return {
    layer: 'out',
    kind: 'vector',
    featureCount: 10,
    width: null,
    height: null,
    crs: UTM,
    extent4326: [9, 45, 9.1, 45.1],
    check: { kind: 'vector', read: 10, hasGeometry: true, invalid: { count: 0, firstIds: [] }, capped: false },
    inputs: [{ name: 'in', crs: UTM, extent4326: [9, 45, 9.1, 45.1] }],
    distances: [],
    measures: [],
    ...over,
  };
}
const codes = (f: QaFacts) => qaReportOf(f).warnings.map((w) => w.code);

describe('qaReportOf: the QA report from the facts', () => {
  it('all is fine: the facts and no warning, no instruction, no empty fields', () => {
    const report = qaReportOf(facts());
    assert.deepEqual(report, { layer: 'out', kind: 'vector', crs: 'EPSG:32632', features: 10, extent: [9, 45, 9.1, 45.1], warnings: [] });
    assert.ok(QaReport.safeParse(report).success);
  });

  it('empty_output for 0 features; the instruction to mention it comes with any warning', () => {
    const report = qaReportOf(facts({ featureCount: 0, extent4326: null }));
    assert.deepEqual(
      report.warnings.map((w) => w.code),
      ['empty_output'],
    );
    assert.equal(report.instruction, QA_MENTION);
    assert.equal(report.features, 0);
  });

  it('invalid geometries: count and first ids, with "…" when there are more', () => {
    const report = qaReportOf(
      facts({ check: { kind: 'vector', read: 10, hasGeometry: true, invalid: { count: 7, firstIds: [4, 5, 6, 7, 8] }, capped: false } }),
    );
    assert.deepEqual(report.invalidGeometries, { count: 7, firstIds: [4, 5, 6, 7, 8] });
    assert.match(report.warnings[0]!.message, /^7 feature\(s\) have invalid geometries \(fid 4, 5, 6, 7, 8, …\)/);
  });

  it('a capped check says so, and its counts are of the part read', () => {
    const report = qaReportOf(
      facts({
        featureCount: 500_000,
        check: { kind: 'vector', read: 200_000, hasGeometry: true, invalid: { count: 2, firstIds: [1, 9] }, capped: true },
      }),
    );
    assert.deepEqual(
      report.warnings.map((w) => w.code),
      ['invalid_geometries', 'check_capped'],
    );
    assert.match(report.warnings[0]!.message, /of the first 200,000 checked/);
    assert.equal(report.features, 500_000, 'the layer’s own count, not the features read');
  });

  it('no CRS on a vector or raster output, never on a table', () => {
    assert.deepEqual(codes(facts({ crs: null })), ['no_crs']);
    assert.equal(qaReportOf(facts({ crs: null })).crs, null);
    assert.deepEqual(codes(facts({ kind: 'table', crs: null, check: null, extent4326: null })), []);
  });

  it('a distance or a planar area on degrees is named, with the layer in degrees', () => {
    const degrees = facts({ inputs: [{ name: 'towns', crs: WGS84, extent4326: [9, 45, 9.1, 45.1] }], crs: WGS84 });
    assert.deepEqual(codes({ ...degrees, distances: [{ param: 'distance', value: 10 }] }), ['distance_in_degrees']);
    const area = qaReportOf({ ...degrees, measures: [{ name: 'ST_Area', kind: 'area' }] });
    assert.deepEqual(
      area.warnings.map((w) => w.code),
      ['area_in_degrees'],
    );
    assert.match(area.warnings[0]!.message, /ST_Area measured in degrees \('towns', 'out' are in degrees\)/);
    // The same distance in metres is no warning.
    assert.deepEqual(codes(facts({ distances: [{ param: 'distance', value: 10 }] })), []);
  });

  it('extent: outside every input, or far larger than the inputs', () => {
    assert.deepEqual(codes(facts({ extent4326: [100, -10, 101, -9] })), ['extent_outside_inputs']);
    const huge = qaReportOf(facts({ extent4326: [-1, 35, 19, 55] }));
    assert.deepEqual(
      huge.warnings.map((w) => w.code),
      ['extent_much_larger'],
    );
    assert.match(huge.warnings[0]!.message, /about \d+× the area of its inputs/);
    // No inputs known (SQL, code, plugins): nothing to compare with.
    assert.deepEqual(codes(facts({ inputs: [], extent4326: [100, -10, 101, -9] })), []);
  });

  it('a raster: pixels, nodata share per band with nodata only, all-nodata is empty output', () => {
    const raster = (bands: { band: number; counted: number; nodata: number }[], capped = false): QaFacts =>
      facts({ kind: 'raster', featureCount: null, width: 40, height: 30, check: { kind: 'raster', width: 40, height: 30, bands, capped } });
    const some = qaReportOf(
      raster([
        { band: 1, counted: 1200, nodata: 300 },
        { band: 2, counted: 1200, nodata: 0 },
      ]),
    );
    assert.equal(some.pixels, 1200);
    assert.deepEqual(some.nodataShare, [{ band: 1, share: 0.25, count: 300 }]);
    assert.equal(some.features, undefined);
    assert.deepEqual(some.warnings, []);
    assert.deepEqual(codes(raster([{ band: 1, counted: 1200, nodata: 1200 }])), ['empty_output']);
    assert.deepEqual(codes(raster([{ band: 1, counted: 600, nodata: 600 }], true)), ['check_capped'], 'a part all nodata is not all');
  });
});

describe('compareExtents', () => {
  it('keeps buffers and point inputs quiet with its margin', () => {
    assert.deepEqual(compareExtents([9.9, 44.9, 10.1, 45.1], [[10, 45, 10, 45]]), { kind: 'ok' });
    assert.deepEqual(compareExtents([10.3, 45, 10.4, 45.1], [[10, 45, 10.1, 45.1]]), { kind: 'ok' });
    assert.equal(compareExtents([-170, -80, 170, 80], [[10, 45, 10, 45]]).kind, 'much_larger');
    assert.equal(compareExtents([12, 45, 13, 46], [[10, 45, 10.1, 45.1]]).kind, 'outside');
  });
});

describe('planarMeasures', () => {
  it('finds planar area and length calls, not their ellipsoid forms', () => {
    assert.deepEqual(planarMeasures('round(ST_Area(geom) / 1e6, 2)'), [{ name: 'ST_Area', kind: 'area' }]);
    assert.deepEqual(planarMeasures('ST_Area(geom, 1) + GeodesicLength(geom) + ST_Length(geom, 1)'), []);
    assert.deepEqual(planarMeasures('st_distance(a.geom, b.geom) < 5'), [{ name: 'st_distance', kind: 'length' }]);
    assert.deepEqual(planarMeasures('ST_Distance(a.geom, b.geom, 1)'), []);
    assert.deepEqual(planarMeasures("area_km2 > 3 AND name = 'ST_Area(geom)'"), [], 'a quoted value is no call');
    assert.deepEqual(planarMeasures('Area(ST_Transform(geom, 3035))'), [], 'measured in the CRS transformed to');
    assert.deepEqual(
      planarMeasures('max(1, ST_Length(coalesce(geom, g2)))'),
      [{ name: 'ST_Length', kind: 'length' }],
      'nesting is skipped',
    );
  });
});
