/**
 * Two-layer algorithms in the real worker on real data: the 100 North Carolina counties (NAD27)
 * against Natural Earth countries (WGS 84, so the worker must reproject), and London's cycle
 * hire stations against the spData world. The referee is GDAL's command line: a copy of both
 * layers made by ogr2ogr in one GeoPackage, queried by ogrinfo with SpatiaLite SQL — never
 * the output of the code under test alone.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { E2E_FIXTURES, fixture, gdalCli, skipReason } from '../testSupport.js';
import { algorithmSuite, CSV_POINTS, featureCountOf, ogrNumber, ogrRows, ogrSo, relClose } from './algorithmTestKit.js';

const NC = fixture('nc.gpkg');
const COUNTRIES = fixture('countries.fgb');
const HIRE = fixture('cycle_hire_xy.csv');
const WORLD = path.join(E2E_FIXTURES, 'world.gpkg');
const area = (file: string, table: string, where = '1'): number =>
  ogrNumber(file, `SELECT SUM(ST_Area(ST_Transform(geom, 6933))) / 1e6 FROM "${table}" WHERE ${where}`);

describe('overlay algorithms in the worker', { skip: skipReason }, () => {
  const { tmp, runGpkg } = algorithmSuite();
  const ref = path.join(tmp.dir, 'referee.gpkg');
  /** The referee's numbers: counties (a) against countries in NAD27 (b), by GDAL alone. */
  let ncArea: number;
  let ncUsArea: number;
  before(() => {
    gdalCli('ogr2ogr', ['-f', 'GPKG', ref, NC, '-nln', 'a']);
    gdalCli('ogr2ogr', ['-update', ref, COUNTRIES, '-nln', 'b', '-t_srs', 'EPSG:4267']);
    ncArea = area(ref, 'a');
    ncUsArea = ogrNumber(
      ref,
      "SELECT ST_Area(ST_Transform(ST_Intersection((SELECT ST_Union(geom) FROM a), (SELECT geom FROM b WHERE id = 'USA')), 6933)) / 1e6",
    );
  });

  test('clip: counties cut to the Natural Earth USA coastline, reprojected from WGS 84 to NAD27', async () => {
    const progress: number[] = [];
    const r = await runGpkg('clip', { input: NC, overlay: COUNTRIES }, 'clip', {
      onProgress: (f) => progress.push(f),
    });
    const referee = ogrNumber(ref, 'SELECT COUNT(*) FROM a WHERE EXISTS (SELECT 1 FROM b WHERE ST_Intersects(a.geom, b.geom))');
    assert.equal(r.featureCount, referee);
    assert.equal(featureCountOf(r.file, r.layer), referee);
    assert.match(ogrSo(r.file, r.layer), /GEOGCRS\["NAD27"[\s\S]*Multi Polygon|Multi Polygon[\s\S]*GEOGCRS\["NAD27"/);
    assert.ok(
      r.notes.some((n) => /countries\.fgb was reprojected .*EPSG:4267/.test(n)),
      r.notes.join('; '),
    );
    assert.ok(relClose(area(r.file, r.layer), ncUsArea, 1e-4), `clipped area ${area(r.file, r.layer)} vs ${ncUsArea}`);
    // An inland county is whole; the Outer Banks county loses what lies beyond the 1:110m coast.
    assert.ok(relClose(area(r.file, r.layer, "NAME = 'Mecklenburg'"), area(ref, 'a', "NAME = 'Mecklenburg'"), 1e-9));
    assert.ok(area(r.file, r.layer, "NAME = 'Dare'") < 0.8 * area(ref, 'a', "NAME = 'Dare'"));
    assert.equal(
      ogrRows(r.file, `SELECT BIR74 FROM clip WHERE NAME = 'Wake'`)[0]!.BIR74,
      ogrRows(ref, "SELECT BIR74 FROM a WHERE NAME = 'Wake'")[0]!.BIR74,
    );
    assert.ok(
      progress.length > 1 && progress.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= progress[i - 1]!)),
      'progress rises to 1',
    );
  });

  test('difference: what lies beyond the coastline; with the clip it adds up to the counties', async () => {
    const r = await runGpkg('difference', { input: NC, overlay: COUNTRIES });
    assert.match(ogrSo(r.file, r.layer), /Multi Polygon[\s\S]*GEOGCRS\["NAD27"/);
    const names = ogrRows(r.file, 'SELECT NAME FROM difference ORDER BY NAME').map((row) => row.NAME);
    const notWithin = ogrRows(
      ref,
      'SELECT NAME FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE ST_Within(a.geom, b.geom)) ORDER BY NAME',
    ).map((row) => row.NAME);
    assert.deepEqual(names, notWithin);
    assert.ok(relClose(area(r.file, r.layer), ncArea - ncUsArea, 1e-3), `${area(r.file, r.layer)} vs ${ncArea - ncUsArea}`);
  });

  test('intersection: one piece per county and country pair, attributes of both, clashing names suffixed', async () => {
    const r = await runGpkg('intersection', { input: NC, overlay: COUNTRIES });
    const pairs = ogrNumber(ref, 'SELECT COUNT(*) FROM a JOIN b ON ST_Intersects(a.geom, b.geom)');
    assert.equal(r.featureCount, pairs);
    assert.match(ogrSo(r.file, r.layer), /Multi Polygon[\s\S]*GEOGCRS\["NAD27"/);
    // nc has NAME, countries has name: SQLite names ignore case, so the overlay's becomes name_2.
    assert.ok(
      r.notes.some((n) => /name → name_2/.test(n)),
      r.notes.join('; '),
    );
    const row = ogrRows(r.file, "SELECT NAME, name_2, id, FIPS FROM intersection WHERE NAME = 'Orange'")[0]!;
    assert.deepEqual(row, { NAME: 'Orange', name_2: 'United States of America', id: 'USA', FIPS: '37135' });
    assert.ok(relClose(area(r.file, r.layer), ncUsArea, 1e-4));
  });

  test('union: overlaps, input-only and overlay-only parts, areas adding up', async () => {
    const r = await runGpkg('union', { input: NC, overlay: COUNTRIES });
    const both = ogrNumber(r.file, 'SELECT COUNT(*) FROM "union" WHERE NAME IS NOT NULL AND name_2 IS NOT NULL');
    const inputOnly = ogrNumber(r.file, 'SELECT COUNT(*) FROM "union" WHERE name_2 IS NULL');
    const overlayOnly = ogrNumber(r.file, 'SELECT COUNT(*) FROM "union" WHERE NAME IS NULL');
    assert.equal(both, ogrNumber(ref, 'SELECT COUNT(*) FROM a JOIN b ON ST_Intersects(a.geom, b.geom)'));
    assert.equal(inputOnly, 5, 'the five coastal counties reach beyond the 1:110m coast');
    assert.equal(overlayOnly, featureCountOf(COUNTRIES, 'countries'), 'every country keeps a part (the USA without North Carolina)');
    assert.equal(r.featureCount, both + inputOnly + overlayOnly);
    assert.match(ogrSo(r.file, r.layer), /Multi Polygon[\s\S]*GEOGCRS\["NAD27"/);
    assert.ok(relClose(area(r.file, r.layer, 'name_2 IS NULL'), ncArea - ncUsArea, 1e-3));
    const usa = area(ref, 'b', "id = 'USA'");
    assert.ok(relClose(area(r.file, r.layer, "NAME IS NULL AND id = 'USA'"), usa - ncUsArea, 1e-5));
  });

  test('select by location: within, intersects and disjoint against the countries', async () => {
    const within = await runGpkg('select_by_location', { input: NC, overlay: COUNTRIES, predicate: 'within' }, 'within');
    assert.equal(
      within.featureCount,
      ogrNumber(ref, 'SELECT COUNT(*) FROM a WHERE EXISTS (SELECT 1 FROM b WHERE ST_Within(a.geom, b.geom))'),
    );
    assert.equal(within.featureCount, 95);
    assert.equal(ogrNumber(within.file, "SELECT COUNT(*) FROM within WHERE NAME IN ('Dare', 'Hyde')"), 0);
    const inside = await runGpkg('select_by_location', { input: HIRE, overlay: WORLD, predicate: 'intersects' }, 'inside');
    assert.equal(inside.featureCount, featureCountOf(HIRE, 'cycle_hire_xy'), 'all London stations lie in the world polygons');
    const disjoint = await runGpkg('select_by_location', { input: WORLD, overlay: HIRE, predicate: 'disjoint' }, 'disjoint');
    assert.equal(disjoint.featureCount, featureCountOf(WORLD, 'world') - 1, 'every country but the United Kingdom');
    assert.equal(ogrNumber(disjoint.file, "SELECT COUNT(*) FROM disjoint WHERE iso_a2 = 'GB'"), 0);
  });

  test('spatial join, first match: each station gets its country; summary: the UK sums the bikes', async () => {
    const first = await runGpkg('spatial_join', { input: HIRE, join: WORLD, predicate: 'within', mode: 'first' }, 'sj_first');
    assert.equal(first.featureCount, 742);
    const countries = ogrRows(first.file, 'SELECT name_long, COUNT(*) AS n FROM sj_first GROUP BY name_long');
    assert.deepEqual(countries, [{ name_long: 'United Kingdom', n: '742' }]);
    // The station's own fields survive next to the joined ones (the CSV's `name` and `area` clash with nothing here).
    const station = ogrRows(first.file, "SELECT name, nbikes, continent FROM sj_first WHERE name = 'River Street'")[0]!;
    assert.deepEqual(station, { name: 'River Street', nbikes: '4', continent: 'Europe' });
    // The CSV has no CRS; its lon/lat columns are taken as WGS 84, and the output says so.
    assert.match(ogrSo(first.file, 'sj_first'), /Geometry: Point[\s\S]*GEOGCRS\["WGS 84"/);
    assert.ok(
      first.notes.some((n) => /cycle_hire_xy\.csv has no CRS.*WGS 84 \(EPSG:4326\) was assumed/.test(n)),
      first.notes.join('; '),
    );

    const summary = await runGpkg(
      'spatial_join',
      { input: WORLD, join: HIRE, mode: 'summary', fields: ['nbikes'], statistics: ['sum', 'max'], keep_unmatched: false },
      'sj_summary',
    );
    assert.equal(summary.featureCount, 1);
    const uk = ogrRows(summary.file, 'SELECT iso_a2, join_count, nbikes_sum, nbikes_max FROM sj_summary')[0]!;
    const bikes = ogrRows(HIRE, 'SELECT COUNT(*) AS n, SUM(nbikes) AS s, MAX(nbikes) AS m FROM cycle_hire_xy', CSV_POINTS)[0]!;
    assert.deepEqual(uk, { iso_a2: 'GB', join_count: bikes.n, nbikes_sum: bikes.s, nbikes_max: bikes.m });
  });

  test('count points in polygons, plain and weighted', async () => {
    const r = await runGpkg('count_points_in_polygons', { input: WORLD, points: HIRE, field_name: 'stations' }, 'counted');
    assert.equal(r.featureCount, featureCountOf(WORLD, 'world'));
    assert.match(ogrSo(r.file, 'counted'), /Multi Polygon[\s\S]*GEOGCRS\["WGS 84"[\s\S]*stations: Integer/);
    assert.equal(ogrNumber(r.file, "SELECT stations FROM counted WHERE iso_a2 = 'GB'"), 742);
    assert.equal(ogrNumber(r.file, 'SELECT SUM(stations) FROM counted'), 742);
    assert.equal(ogrNumber(r.file, "SELECT stations FROM counted WHERE iso_a2 = 'FR'"), 0);
    const w = await runGpkg(
      'count_points_in_polygons',
      { input: WORLD, points: HIRE, field_name: 'bikes', weight_field: 'nbikes' },
      'weighted',
    );
    assert.equal(
      ogrNumber(w.file, "SELECT bikes FROM weighted WHERE iso_a2 = 'GB'"),
      ogrNumber(HIRE, 'SELECT SUM(nbikes) FROM cycle_hire_xy', CSV_POINTS),
    );
  });

  test('clip refuses a point overlay with a readable error', async () => {
    await assert.rejects(
      runGpkg('clip', { input: WORLD, overlay: HIRE }, 'bad_clip'),
      /'overlay' must be a polygon layer; cycle_hire_xy\.csv holds points/,
    );
  });
});
