/**
 * One-layer geometry algorithms in the real worker on real data, checked against GDAL's
 * command line (ogrinfo / ogr2ogr), against areas published with the data (spData's
 * area_km2, computed by R's sf) and against projected measures.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { WorkerRequestError } from '../../worker-host/GisWorkerClient.js';
import { E2E_FIXTURES, fixture, gdalCli, skipReason } from '../testSupport.js';
import { algorithmSuite, featureCountOf, ogrNumber, ogrRows, ogrSo, relClose } from './algorithmTestKit.js';

const NC = fixture('nc.gpkg');
const WORLD = path.join(E2E_FIXTURES, 'world.gpkg');
const SCOT = fixture('scot_BNG.shp');
const area6933 = (file: string, table: string, where = '1', geom = 'geom'): number =>
  ogrNumber(file, `SELECT SUM(ST_Area(ST_Transform(${geom}, 6933))) / 1e6 FROM "${table}" WHERE ${where}`);

describe('geometry algorithms in the worker', { skip: skipReason }, () => {
  const { tmp, runGpkg } = algorithmSuite();

  test('dissolve by continent: one feature per continent, member counts and areas kept', async () => {
    const r = await runGpkg('dissolve', { input: WORLD, by: ['CONTINENT'] });
    assert.equal(r.featureCount, ogrNumber(WORLD, 'SELECT COUNT(DISTINCT continent) FROM world'));
    const africa = ogrRows(r.file, "SELECT continent, feature_count FROM dissolve WHERE continent = 'Africa'")[0]!;
    assert.equal(Number(africa.feature_count), ogrNumber(WORLD, "SELECT COUNT(*) FROM world WHERE continent = 'Africa'"));
    const summed = area6933(WORLD, 'world', "continent = 'Africa'");
    assert.ok(
      relClose(area6933(r.file, 'dissolve', "continent = 'Africa'"), summed, 1e-4),
      'countries do not overlap: the union keeps their area',
    );
    assert.match(ogrSo(r.file, 'dissolve'), /Geometry: Multi Polygon[\s\S]*GEOGCRS\["WGS 84"/);
  });

  test('dissolve everything: the 100 counties become one North Carolina', async () => {
    const r = await runGpkg('dissolve', { input: NC }, 'nc_all');
    assert.equal(r.featureCount, 1);
    assert.equal(ogrNumber(r.file, 'SELECT feature_count FROM nc_all'), 100);
    assert.ok(relClose(area6933(r.file, 'nc_all'), area6933(NC, 'nc.gpkg'), 1e-6));
  });

  test('centroids: one point per county, at the centroid GDAL computes, inside the county', async () => {
    const r = await runGpkg('centroids', { input: NC });
    assert.equal(r.featureCount, 100);
    assert.match(ogrSo(r.file, 'centroids'), /Geometry: Point[\s\S]*NAD27/);
    const ours = ogrRows(r.file, "SELECT ST_X(geom) AS x, ST_Y(geom) AS y FROM centroids WHERE NAME = 'Mecklenburg'")[0]!;
    const gdals = ogrRows(
      NC,
      `SELECT ST_X(ST_Centroid(geom)) AS x, ST_Y(ST_Centroid(geom)) AS y FROM "nc.gpkg" WHERE NAME = 'Mecklenburg'`,
    )[0]!;
    assert.ok(Math.abs(Number(ours.x) - Number(gdals.x)) < 1e-9 && Math.abs(Number(ours.y) - Number(gdals.y)) < 1e-9);
    // Charlotte is the county seat, about 35.23 N 80.84 W.
    assert.ok(Math.abs(Number(ours.x) + 80.83) < 0.1 && Math.abs(Number(ours.y) - 35.25) < 0.1);
  });

  test('centroids inside: a shapefile without .prj and with a NULL geometry', async () => {
    const r = await runGpkg('centroids', { input: fixture('trin_inca_pl03.shp'), inside: true }, 'trin_pts');
    const withGeometry = ogrNumber(fixture('trin_inca_pl03.shp'), 'SELECT COUNT(*) FROM trin_inca_pl03 WHERE GEOMETRY IS NOT NULL');
    assert.equal(r.featureCount, withGeometry);
    assert.ok(
      r.notes.some((n) => /1 feature\(s\) without geometry were skipped/.test(n)),
      r.notes.join('; '),
    );
  });

  test('simplify: GDAL’s own topology-preserving simplification in metres, CRS kept', async () => {
    const r = await runGpkg('simplify', { input: SCOT, tolerance: 1000 });
    assert.equal(r.featureCount, 56);
    const cli = path.join(tmp.dir, 'cli_simplify.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', cli, SCOT, '-simplify', '1000', '-nln', 'cli']);
    const vertices = (file: string, table: string): number => ogrNumber(file, `SELECT SUM(ST_NPoints(geom)) FROM "${table}"`);
    assert.equal(vertices(r.file, 'simplify'), vertices(cli, 'cli'));
    assert.ok(vertices(r.file, 'simplify') < 0.5 * ogrNumber(SCOT, 'SELECT SUM(ST_NPoints(GEOMETRY)) FROM scot_BNG'));
    assert.match(ogrSo(r.file, 'simplify'), /British National Grid/);
  });

  test('simplify refuses a layer in degrees', async () => {
    await assert.rejects(
      runGpkg('simplify', { input: fixture('countries.fgb'), tolerance: 0.1 }, 'bad_simplify'),
      (err: unknown) => err instanceof WorkerRequestError && err.code === 'bad_input' && /degrees/.test(err.message),
    );
  });

  test('convert format: GeoJSON (WGS 84), Shapefile, FlatGeobuf and CSV, written beside the chosen path', async () => {
    const gj = await runGpkg('convert_format', { input: NC, format: 'geojson' }, 'nc_json');
    assert.equal(gj.output, path.join(tmp.dir, 'nc_json.geojson'));
    assert.equal(featureCountOf(gj.output, 'nc_json'), 100);
    assert.match(ogrSo(gj.output, 'nc_json'), /GEOGCRS\["WGS 84"/);
    assert.ok(gj.notes.some((n) => /RFC 7946/.test(n)));
    const bir = (file: string, layer: string): string | null =>
      ogrRows(file, `SELECT BIR74 FROM "${layer}" WHERE NAME = 'Ashe'`)[0]!.BIR74!;
    assert.equal(Number(bir(gj.output, 'nc_json')), Number(bir(NC, 'nc.gpkg')));

    const shp = await runGpkg('convert_format', { input: NC, format: 'shapefile' }, 'nc_shp');
    assert.equal(shp.output, path.join(tmp.dir, 'nc_shp.shp'));
    assert.ok(existsSync(path.join(tmp.dir, 'nc_shp.prj')) && existsSync(path.join(tmp.dir, 'nc_shp.dbf')));
    assert.equal(featureCountOf(shp.output, 'nc_shp'), 100);
    assert.match(ogrSo(shp.output, 'nc_shp'), /NAD27/);

    const fgb = await runGpkg('convert_format', { input: NC, format: 'flatgeobuf' }, 'nc_fgb');
    assert.equal(featureCountOf(fgb.output, 'nc_fgb'), 100);
    assert.ok(relClose(area6933(fgb.output, 'nc_fgb', '1', 'GEOMETRY'), area6933(NC, 'nc.gpkg'), 1e-9));

    const csv = await runGpkg('convert_format', { input: fixture('cycle_hire_xy.csv'), format: 'csv' }, 'hire');
    assert.equal(csv.output, path.join(tmp.dir, 'hire.csv'));
    assert.match(readFileSync(csv.output, 'utf8').split('\n')[0]!, /^"?X"?,"?Y"?,/);
    assert.equal(featureCountOf(csv.output, 'hire'), 742);

    const gpkg = await runGpkg('convert_format', { input: fixture('scot_BNG.shp'), format: 'gpkg' }, 'scot_gpkg');
    assert.equal(gpkg.output, `${path.join(tmp.dir, 'scot_gpkg.gpkg')}|layername=scot_gpkg`);
    assert.equal(featureCountOf(gpkg.file, 'scot_gpkg'), 56);
    assert.match(ogrSo(gpkg.file, 'scot_gpkg'), /British National Grid/);

    // A second conversion never overwrites the first file.
    const again = await runGpkg('convert_format', { input: NC, format: 'geojson' }, 'nc_json');
    assert.equal(again.output, path.join(tmp.dir, 'nc_json-2.geojson'));
  });

  test('area and length: geodesic, close to equal-area, projected and published areas', async () => {
    const r = await runGpkg('area_length', { input: NC, area_unit: 'km2', length_unit: 'km' }, 'nc_measured');
    assert.ok(r.notes.some((n) => /geodesic area on the WGS 84 ellipsoid/.test(n)));
    const ours = ogrRows(r.file, "SELECT area_km2, perimeter_km FROM nc_measured WHERE NAME = 'Mecklenburg'")[0]!;
    const ea = area6933(NC, 'nc.gpkg', "NAME = 'Mecklenburg'");
    // Mecklenburg lies at 80.8° W, on UTM 17N's central meridian (scale 0.9996): UTM is nearly true there.
    const utm = ogrRows(
      NC,
      `SELECT ST_Area(ST_Transform(geom, 32617)) / 1e6 AS a, ST_Perimeter(ST_Transform(geom, 32617)) / 1e3 AS p FROM "nc.gpkg" WHERE NAME = 'Mecklenburg'`,
    )[0]!;
    assert.ok(relClose(Number(ours.area_km2), ea, 1e-3), `${ours.area_km2} vs equal-area ${ea}`);
    assert.ok(relClose(Number(ours.area_km2), Number(utm.a), 2e-3), `${ours.area_km2} vs UTM ${utm.a}`);
    assert.ok(relClose(Number(ours.perimeter_km), Number(utm.p), 1e-3), `${ours.perimeter_km} vs UTM ${utm.p}`);
    assert.ok(Number(ours.area_km2) > 1350 && Number(ours.area_km2) < 1500, 'Mecklenburg County: 546 sq mi ≈ 1,414 km²');

    // spData's own area_km2 (R sf, on the ellipsoid) is replaced by ours: both agree within 0.5 %.
    const w = await runGpkg('area_length', { input: WORLD, area_unit: 'km2', length_unit: 'km' }, 'world_measured');
    assert.ok(w.notes.some((n) => /replaced/.test(n)));
    for (const iso of ['DE', 'FR', 'BR', 'CA', 'AU', 'RU']) {
      const published = ogrNumber(WORLD, `SELECT area_km2 FROM world WHERE iso_a2 = '${iso}'`);
      const computed = ogrNumber(w.file, `SELECT area_km2 FROM world_measured WHERE iso_a2 = '${iso}'`);
      assert.ok(relClose(computed, published, 5e-3), `${iso}: ${computed} vs published ${published}`);
    }

    // Lines: the county outlines as lines measure as the perimeters did.
    const lines = path.join(tmp.dir, 'nc_lines.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', lines, NC, '-nlt', 'MULTILINESTRING', '-nln', 'nc_lines']);
    const l = await runGpkg('area_length', { input: lines, area_unit: 'km2', length_unit: 'm' }, 'lines_measured');
    const length = ogrNumber(l.file, "SELECT length_m FROM lines_measured WHERE NAME = 'Mecklenburg'");
    assert.ok(relClose(length / 1000, Number(utm.p), 1e-3), `${length} m vs UTM ${utm.p} km`);

    // A projected national grid: British National Grid areas are within 0.1 % of true.
    const s = await runGpkg('area_length', { input: SCOT, area_unit: 'ha', length_unit: 'km' }, 'scot_measured');
    const bng = ogrNumber(SCOT, "SELECT ST_Area(GEOMETRY) / 1e4 FROM scot_BNG WHERE NAME = 'Sutherland'");
    assert.ok(relClose(ogrNumber(s.file, "SELECT area_ha FROM scot_measured WHERE NAME = 'Sutherland'"), bng, 2e-3));
    assert.match(ogrSo(s.file, 'scot_measured'), /British National Grid/);
  });

  test('area and length refuse points and layers without a CRS', async () => {
    await assert.rejects(runGpkg('area_length', { input: fixture('cycle_hire_xy.csv') }, 'bad_area1'), /holds points/);
    await assert.rejects(runGpkg('area_length', { input: fixture('trin_inca_pl03.shp') }, 'bad_area2'), /has no CRS/);
  });
});
