/**
 * The inspect and layers worker functions in the real worker process, on real data, each
 * answer checked against GDAL's own command-line tools (gdalinfo -json, ogrinfo,
 * gdallocationinfo, gdalwarp) or against the raw file text — never against our own output.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CallParams, WorkerCallName } from '../../../src-shared/worker/workerCalls.js';
import type { GisWorkerClient } from '../../worker-host/GisWorkerClient.js';
import {
  assertClose,
  E2E_FIXTURES,
  e2eFixture,
  fixture,
  gdalCli,
  makeTempDir,
  ogrSummary,
  rejectsAsBadInput,
  skipReason,
  startWorker,
} from '../testSupport.js';

const own = e2eFixture;

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads of JSON answers

interface GdalBandStats {
  minimum: number;
  maximum: number;
  mean: number;
  stdDev: number;
  validPercent: number;
}

let copies = 0;
/**
 * Statistics computed afresh by GDAL (gdal_translate -stats, read back with gdalinfo -json):
 * elev.tif ships STATISTICS_MEAN=-9999 from the R package that wrote it, which a plain
 * gdalinfo -stats would repeat.
 */
function gdalinfoStats(file: string, dir: string): GdalBandStats {
  const copy = path.join(dir, `stats_${copies++}.tif`);
  gdalCli('gdal_translate', ['-q', '-stats', file, copy]);
  const band = (JSON.parse(gdalCli('gdalinfo', ['-json', copy])) as { bands: { metadata: { '': Record<string, string> } }[] }).bands[0]!;
  const m = band.metadata[''];
  return {
    minimum: Number(m.STATISTICS_MINIMUM),
    maximum: Number(m.STATISTICS_MAXIMUM),
    mean: Number(m.STATISTICS_MEAN),
    stdDev: Number(m.STATISTICS_STDDEV),
    validPercent: Number(m.STATISTICS_VALID_PERCENT),
  };
}

function locationValue(file: string, lon: number, lat: number): string {
  return gdalCli('gdallocationinfo', ['-valonly', '-wgs84', file, String(lon), String(lat)]).trim();
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('inspect worker functions', { skip: skipReason }, () => {
  let client: GisWorkerClient;
  const tmp = makeTempDir('mapwright-inspect-');
  const call = <F extends WorkerCallName>(fn: F, args: CallParams<F>) => client.call(fn, args) as Promise<Obj>;
  const fails = (fn: string, args: unknown, pattern: RegExp) =>
    rejectsAsBadInput(client.call(fn as WorkerCallName, args as never), pattern);
  before(() => {
    process.env.GDAL_PAM_ENABLED = 'NO';
    client = startWorker();
  });
  after(() => {
    client.dispose();
    tmp.cleanup();
  });
  /** inspect.query_features with an attribute filter and no geometry, its total_count checked against ogrinfo -where. */
  async function queryWhere(source: string, layer: string, where: string, fields: string[]): Promise<Obj> {
    const r = await call('inspect.query_features', { source, where, fields, include_geometry: false });
    assert.equal(r.total_count, ogrSummary(source, layer, ['-where', where]).featureCount);
    return r;
  }

  test('layer details: elev.tif band statistics match gdalinfo -stats; scot_BNG is EPSG:27700 in metres', async () => {
    const elev = await call('inspect.layer_details', { source: fixture('elev.tif') });
    const ref = gdalinfoStats(fixture('elev.tif'), tmp.dir);
    const band = elev.bands[0];
    assert.equal(band.data_type, 'Int16');
    assert.equal(band.nodata, -32768);
    assert.equal(band.min, ref.minimum);
    assert.equal(band.max, ref.maximum);
    assertClose(band.mean, ref.mean, 1e-9, 'mean');
    assertClose(band.std_dev, ref.stdDev, 1e-9, 'std');
    assert.deepEqual(elev.crs, { epsg: 4326, name: 'WGS 84', geographic: true, units: 'degree' });

    const scot = await call('inspect.layer_details', { source: fixture('scot_BNG.shp') });
    assert.equal(scot.crs.epsg, 27700);
    assert.equal(scot.crs.name, 'OSGB36 / British National Grid');
    assert.equal(scot.crs.units, 'metre');
    assert.equal(scot.feature_count, ogrSummary(fixture('scot_BNG.shp')).featureCount);
    ogrSummary(fixture('scot_BNG.shp')).extent!.forEach((v, i) => assertClose(scot.extent_native[i], v, 1e-5, `extent[${i}]`));
  });

  test('extent in another CRS holds every reprojected geometry (ogr2ogr as referee); unknown EPSG is refused', async () => {
    const out = path.join(tmp.dir, 'scot_4326.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', '-t_srs', 'EPSG:4326', out, fixture('scot_BNG.shp')]);
    const truth = ogrSummary(out).extent!;
    const { extent, crs } = await call('inspect.extent', { source: fixture('scot_BNG.shp'), crs: 'EPSG:4326' });
    assert.equal(crs, 'EPSG:4326');
    for (let i = 0; i < 4; i++) assertClose(extent[i], truth[i]!, 0.02, `extent[${i}]`);
    assert.ok(extent[0] <= truth[0]! + 1e-9 && extent[2] >= truth[2]! - 1e-9, 'the box holds the geometries');
    await fails('inspect.extent', { source: fixture('scot_BNG.shp'), crs: 'EPSG:999999' }, /Unknown target CRS 'EPSG:999999'.*EPSG:4326/);
  });

  test('query features: attribute filter count agrees with ogrinfo -where; fields subset; limit truncates', async () => {
    const r = await queryWhere(own('world.gpkg'), 'world', "continent = 'Africa' AND pop > 50000000", ['name_long', 'pop']);
    assert.equal(r.returned, r.total_count);
    assert.ok(r.features.some((f: Obj) => f.properties.name_long === 'Nigeria'));
    assert.deepEqual(Object.keys(r.features[0].properties), ['name_long', 'pop']);

    const limited = await call('inspect.query_features', { source: own('world.gpkg'), limit: 5, include_geometry: false });
    assert.equal(limited.total_count, 177);
    assert.equal(limited.returned, 5);
    assert.equal(limited.truncated, true);
    assert.equal(limited.truncated_by, 'limit');
  });

  test('query features: a too-large answer is cut by size, flagged, and still counts every match', async () => {
    const r = await call('inspect.query_features', { source: own('world.gpkg'), limit: 177, max_chars: 20_000 });
    assert.equal(r.truncated, true);
    assert.equal(r.truncated_by, 'size');
    assert.ok(r.returned >= 1 && r.returned < 177);
    assert.ok(JSON.stringify(r.features).length <= 20_000 + 2 * r.returned);
    assert.equal(r.total_count, 177);
  });

  test('query features: bbox in degrees on a British National Grid layer; a point geometry finds its country', async () => {
    // Edinburgh lies at about 3.19° W, 55.95° N.
    const r = await call('inspect.query_features', {
      source: fixture('scot_BNG.shp'),
      bbox: [-3.25, 55.93, -3.15, 55.97],
      fields: ['NAME'],
      include_geometry: false,
    });
    assert.deepEqual(
      r.features.map((f: Obj) => f.properties.NAME),
      ['Edinburgh'],
    );
    // Paris, 2.35° E 48.86° N.
    const p = await call('inspect.query_features', { source: own('world.gpkg'), geometry: 'POINT (2.35 48.86)', fields: ['name_long'] });
    assert.deepEqual(
      p.features.map((f: Obj) => f.properties.name_long),
      ['France'],
    );
    assert.equal(p.features[0].geometry.type, 'MultiPolygon');
    // The same point given in British National Grid metres (EPSG:27700) finds Scottish areas only when it is there.
    const bng = await call('inspect.query_features', {
      source: fixture('scot_BNG.shp'),
      geometry: { type: 'Point', coordinates: [325_500, 673_500] },
      filter_crs: 'EPSG:27700',
      fields: ['NAME'],
      include_geometry: false,
    });
    assert.deepEqual(
      bng.features.map((f: Obj) => f.properties.NAME),
      ['Edinburgh'],
    );
  });

  test('query features: bad input — unknown field in the filter or subset, bad syntax, wrong CRS', async () => {
    await fails(
      'inspect.query_features',
      { source: own('world.gpkg'), where: 'populaton > 5' },
      /Invalid attribute filter.*Fields: iso_a2, name_long/,
    );
    await fails('inspect.query_features', { source: fixture('scot_BNG.shp'), where: 'NAME = ' }, /Invalid attribute filter/);
    await fails('inspect.query_features', { source: own('world.gpkg'), fields: ['nome'] }, /No field 'nome'/);
    await fails('inspect.query_features', { source: own('world.gpkg'), bbox: [0, 0, 1, 1], filter_crs: 'EPSG:0' }, /Unknown filter CRS/);
    await fails('inspect.query_features', { source: own('worldbank_df.csv'), bbox: [0, 0, 1, 1] }, /table without geometry/);
  });

  test('a Shapefile with non-ASCII field names: fields read as UTF-8 and usable in filters', async () => {
    const r = await queryWhere(own('sudamerica.shp'), 'sudamerica', '"población" > 100000000', ['país', 'población']);
    assert.deepEqual(
      r.features.map((f: Obj) => f.properties['país']),
      ['Brazil'],
    );
  });

  test('sample raster: values match gdallocationinfo; nodata is null; outside has no pixel', async () => {
    // Points away from pixel edges (the grid is 1/120°), so both tools pick the same pixel.
    const points: [number, number][] = [
      [6.004, 49.796],
      [6.131, 49.611],
      [5.746, 50.171],
      [0, 0],
    ];
    const r = await call('inspect.sample_raster', { source: fixture('elev.tif'), points });
    for (const [i, [lon, lat]] of points.slice(0, 3).entries()) {
      const ref = locationValue(fixture('elev.tif'), lon, lat);
      const got = r.samples[i].values['1'];
      if (ref === '-32768') assert.equal(got, null, `nodata at ${lon},${lat}`);
      else assert.equal(got, Number(ref), `value at ${lon},${lat}`);
    }
    assert.ok(
      r.samples.slice(0, 3).some((s: Obj) => s.values['1'] === null),
      'one of the points is nodata',
    );
    assert.deepEqual(r.samples[3], { x: 0, y: 0, pixel: null, values: { 1: null } });
  });

  test('sample raster in a projected CRS: the 6 Landsat bands at a UTM point match gdallocationinfo -geoloc', async () => {
    const info = JSON.parse(gdalCli('gdalinfo', ['-json', fixture('L7_ETMs.tif')])) as { cornerCoordinates: { center: [number, number] } };
    const [x, y] = info.cornerCoordinates.center;
    const ref = gdalCli('gdallocationinfo', ['-valonly', '-geoloc', fixture('L7_ETMs.tif'), String(x), String(y)])
      .trim()
      .split('\n')
      .map(Number);
    const r = await call('inspect.sample_raster', { source: fixture('L7_ETMs.tif'), points: [[x, y]], crs: 'EPSG:31985' });
    assert.deepEqual(Object.values(r.samples[0].values), ref);
    await fails(
      'inspect.sample_raster',
      { source: fixture('L7_ETMs.tif'), points: [[x, y]], bands: [7] },
      /6 band\(s\); there is no band 7/,
    );
  });

  test('GeoPackage raster: the same DEM as a GPKG tile table gives the same values as the GeoTIFF', async () => {
    const pts: [number, number][] = [
      [6.004, 49.796],
      [6.204, 49.896],
    ];
    const a = await call('inspect.sample_raster', { source: own('elev_raster.gpkg'), points: pts });
    const b = await call('inspect.sample_raster', { source: fixture('elev.tif'), points: pts });
    assert.deepEqual(
      a.samples.map((s: Obj) => s.values),
      b.samples.map((s: Obj) => s.values),
    );
    assert.equal(Number(locationValue(own('elev_raster.gpkg'), 6.004, 49.796)), a.samples[0].values['1']);
  });

  test('raster statistics: count, sum, mean, min, max and std agree with gdalinfo -stats', async () => {
    const r = await call('inspect.raster_stats', { source: fixture('elev.tif') });
    const ref = gdalinfoStats(fixture('elev.tif'), tmp.dir);
    const s = r.bands[0];
    const pixels = 95 * 90;
    assertClose(s.count, (ref.validPercent / 100) * pixels, pixels * 0.00005, 'valid pixel count');
    assert.equal(s.count + s.nodata_count, pixels);
    assert.equal(s.min, ref.minimum);
    assert.equal(s.max, ref.maximum);
    assertClose(s.mean, ref.mean, 1e-9, 'mean');
    assertClose(s.std_dev, ref.stdDev, 1e-9, 'std');
    assertClose(s.sum, ref.mean * s.count, 1e-3, 'sum');
  });

  test('raster statistics per polygon: each Luxembourg canton agrees with gdalwarp -cutline + gdalinfo -stats', async () => {
    const r = await call('inspect.raster_stats', { source: fixture('elev.tif'), zones: own('lux.shp'), zone_field: 'NAME_2' });
    assert.equal(r.zone_count, 12);
    assert.equal(r.zones.length, 12);
    for (const name of ['Clervaux', 'Luxembourg', 'Esch-sur-Alzette']) {
      const z = r.zones.find((x: Obj) => x.zone === name).band_1;
      const out = path.join(tmp.dir, `cut_${name}.tif`);
      // Same grid as the source (no resampling), pixels whose centre is inside the canton kept.
      gdalCli('gdalwarp', [
        '-q',
        '-overwrite',
        '-cutline',
        own('lux.shp'),
        '-cwhere',
        `NAME_2 = '${name}'`,
        '-te',
        '5.741666666666666',
        '49.44166666666666',
        '6.533333333333333',
        '50.19166666666666',
        '-ts',
        '95',
        '90',
        '-dstnodata',
        '-32768',
        fixture('elev.tif'),
        out,
      ]);
      const ref = gdalinfoStats(out, tmp.dir);
      assertClose(z.count, (ref.validPercent / 100) * 95 * 90, 95 * 90 * 0.00005, `${name} pixel count`);
      assert.equal(z.min, ref.minimum, `${name} min`);
      assert.equal(z.max, ref.maximum, `${name} max`);
      assertClose(z.mean, ref.mean, 1e-9, `${name} mean`);
    }
    await fails(
      'inspect.raster_stats',
      { source: fixture('elev.tif'), zones: own('lux.shp'), zone_field: 'canton' },
      /No field 'canton'.*NAME_2/,
    );
  });

  test('describe a folder: GIS files one level deep, shapefile sidecars folded, spreadsheet sheets as tables', async () => {
    const r = await call('inspect.describe_path', { path: E2E_FIXTURES });
    assert.equal(r.kind, 'folder');
    const names = r.files.map((f: Obj) => path.basename(f.path));
    for (const n of ['world.gpkg', 'lux.shp', 'sudamerica.shp', 'test_trk2.gpx', 'datasets.xlsx', 'worldbank_df.csv'])
      assert.ok(names.includes(n), n);
    assert.ok(!names.includes('lux.dbf') && !names.includes('SOURCES.md'));
    const xlsx = r.files.find((f: Obj) => f.path.endsWith('datasets.xlsx'));
    // The R datasets: iris 150 rows, mtcars 32, chickwts 71, quakes 1000.
    assert.deepEqual(
      xlsx.layers.map((l: Obj) => [l.name, l.kind, l.feature_count]),
      [
        ['iris', 'table', 150],
        ['mtcars', 'table', 32],
        ['chickwts', 'table', 71],
        ['quakes', 'table', 1000],
      ],
    );
    const world = await call('inspect.describe_path', { path: own('world.gpkg') });
    assert.equal(world.layers[0].crs, 'EPSG:4326');
    assert.ok(world.layers[0].fields.includes('pop (real)'));
    await fails('inspect.describe_path', { path: own('nope.gpkg') }, /Not found/);
  });

  test('sublayers of a multi-layer GPX: five layers, counts as ogrinfo gives them', async () => {
    const r = await call('layers.list_sublayers', { path: own('test_trk2.gpx') });
    const counts = Object.fromEntries(r.layers.map((l: Obj) => [l.name, l.feature_count]));
    for (const name of ['waypoints', 'routes', 'tracks', 'route_points', 'track_points']) {
      assert.equal(counts[name], ogrSummary(own('test_trk2.gpx'), name).featureCount, name);
    }
    assert.equal(counts.tracks, 2);
  });

  test('tables: a statistics CSV with title lines and notes; a BEA CSV with footnotes; R NA cells', async () => {
    const deaths = await client.call('layers.describe', { source: own('deaths_arts.csv') });
    assert.equal(deaths.kind, 'table');
    assert.equal(deaths.featureCount, 10, 'ten people between the title lines and the notes');
    assert.deepEqual(deaths.fields.map((f) => [f.name, f.type]).slice(0, 3), [
      ['Name', 'string'],
      ['Profession', 'string'],
      ['Age', 'integer'],
    ]);
    const bowie = await call('inspect.query_features', { source: own('deaths_arts.csv'), where: "Name = 'David Bowie'" });
    assert.equal(bowie.features[0].properties.Age, 69);
    assert.equal(bowie.features[0].properties['Date of death'], '2016-01-10');

    // The raw text says Alabama's 1969 per-capita income was 2734, FIPS "01".
    const raw = readFileSync(own('spi_download.csv'), 'utf8')
      .split('\n')
      .find((l) => l.includes('"Alabama"'))!;
    const bea = await call('inspect.query_features', { source: own('spi_download.csv'), where: "AreaName = 'Alabama'" });
    assert.equal(bea.total_count, 1);
    assert.equal(bea.features[0].properties.FIPS, '01', 'a quoted code stays text');
    assert.equal(bea.features[0].properties['1969'], Number(raw.split(',')[3]));
    const beaInfo = await client.call('layers.describe', { source: own('spi_download.csv') });
    assert.equal(
      beaInfo.featureCount,
      readFileSync(own('spi_download.csv'), 'utf8')
        .split('\n')
        .filter((l) => /^"400"/.test(l)).length,
    );

    const wb = await client.call('layers.describe', { source: own('worldbank_df.csv') });
    assert.equal(wb.fields.find((f) => f.name === 'HDI')?.type, 'real', 'NA cells do not make HDI text');
  });

  test('SQL joins a statistics table to country polygons; values checked against the raw CSV', async () => {
    const tables = [
      { name: 'world', source: own('world.gpkg') },
      { name: 'world bank', source: own('worldbank_df.csv') },
    ];
    const sql =
      "SELECT w.name_long, b.HDI, ST_Area(w.geom) > 0 AS has_area FROM world w JOIN \"world bank\" b ON b.iso_a2 = w.iso_a2 WHERE w.iso_a2 IN ('NA', 'AO') ORDER BY w.name_long";
    const r = await call('inspect.sql', { sql, tables, limit: 10 });
    // Namibia's ISO code is the text "NA" — not a missing value — and its HDI is 0.606.
    const hdi = (name: string) =>
      Number(
        readFileSync(own('worldbank_df.csv'), 'utf8')
          .split('\n')
          .find((l) => l.startsWith(`${name},`))!
          .split(',')[2],
      );
    assert.deepEqual(r.rows, [
      { name_long: 'Angola', HDI: hdi('Angola'), has_area: 1 },
      { name_long: 'Namibia', HDI: hdi('Namibia'), has_area: 1 },
    ]);
    assert.equal((r.rows as Obj[])[1]!.HDI, 0.606);
    const all = await call('inspect.sql', { sql: 'SELECT name_long FROM world', tables, limit: 5 });
    assert.deepEqual([all.returned, all.total_rows, all.truncated], [5, ogrSummary(own('world.gpkg')).featureCount, true]);
  });

  test('SQL refuses anything but one SELECT, and names tables and columns when a query is wrong', async () => {
    const tables = [{ name: 'world', source: own('world.gpkg') }];
    await fails('inspect.sql', { sql: 'DELETE FROM world', tables }, /Only a SELECT/);
    await fails('inspect.sql', { sql: 'SELECT 1; DROP TABLE world', tables }, /one statement/);
    await fails('inspect.sql', { sql: "WITH x AS (SELECT 1) INSERT INTO world (name_long) SELECT 'x' FROM x", tables }, /INSERT is not/);
    await fails('inspect.sql', { sql: "ATTACH DATABASE '/tmp/x.db' AS x", tables }, /Only a SELECT/);
    await fails(
      'inspect.sql',
      { sql: "SELECT BlobToFile(x'00', '/tmp/mapwright-x')", tables },
      /BlobToFile\(\) is not allowed: it reads or writes files/,
    );
    await fails('inspect.sql', { sql: 'SELECT nme FROM world', tables }, /no such column: nme.*"world" \(geom \[geometry\], iso_a2/);
  });

  test('read-only: files are byte-identical, with the same mtime and no side files, after queries', async () => {
    const dir = path.join(tmp.dir, 'ro');
    (await import('node:fs')).mkdirSync(dir);
    for (const f of ['world.gpkg', 'worldbank_df.csv', 'deaths_arts.csv']) copyFileSync(own(f), path.join(dir, f));
    const before = readdirSync(dir).map((f) => [f, sha(path.join(dir, f)), statSync(path.join(dir, f)).mtimeMs]);
    const tables = [
      { name: 'world', source: path.join(dir, 'world.gpkg') },
      { name: 'wb', source: path.join(dir, 'worldbank_df.csv') },
      { name: 'deaths', source: path.join(dir, 'deaths_arts.csv') },
    ];
    await call('inspect.sql', {
      sql: 'SELECT w.name_long, ST_Area(ST_Buffer(w.geom, 0.1)) FROM world w JOIN wb ON wb.iso_a2 = w.iso_a2',
      tables,
      limit: 3,
    });
    await call('inspect.sql', { sql: 'SELECT COUNT(*) FROM deaths', tables });
    await fails('inspect.sql', { sql: 'UPDATE world SET pop = 0', tables }, /Only a SELECT/);
    await call('inspect.query_features', { source: path.join(dir, 'world.gpkg'), where: 'pop > 1' });
    const after = readdirSync(dir).map((f) => [f, sha(path.join(dir, f)), statSync(path.join(dir, f)).mtimeMs]);
    assert.deepEqual(after, before);
  });

  test('save_query writes the result as a new GeoPackage layer (ogrinfo checks it) and never over a file', async () => {
    const out = path.join(tmp.dir, 'africa_hdi.gpkg');
    const tables = [
      { name: 'world', source: own('world.gpkg') },
      { name: 'wb', source: own('worldbank_df.csv') },
    ];
    const sql = "SELECT w.name_long, wb.HDI, w.geom FROM world w JOIN wb ON wb.iso_a2 = w.iso_a2 WHERE w.continent = 'Africa'";
    const r = await call('inspect.save_query', { sql, tables, output: `${out}|layername=africa_hdi` });
    const ref = ogrSummary(out, 'africa_hdi');
    assert.equal(r.featureCount, ref.featureCount);
    // Referee: African ISO codes from ogrinfo that also appear in the CSV's raw text.
    const codes = new Set(
      readFileSync(own('worldbank_df.csv'), 'utf8')
        .split('\n')
        .map((l) => /^(?:"[^"]*"|[^,]*),"?([A-Z]{2})"?,/.exec(l)?.[1])
        .filter(Boolean),
    );
    const african = [
      ...gdalCli('ogrinfo', ['-q', '-sql', "SELECT iso_a2 FROM world WHERE continent = 'Africa'", own('world.gpkg')]).matchAll(
        /iso_a2 \(String\) = (\w+)/g,
      ),
    ].map((m) => m[1]);
    assert.equal(ref.featureCount, african.filter((c) => codes.has(c)).length);
    assert.match(ref.geometry, /Multi Polygon/);
    await fails('inspect.save_query', { sql, tables, output: `${out}|layername=again` }, /already exists/);
    await fails(
      'inspect.save_query',
      { sql: 'DROP TABLE world', tables, output: `${path.join(tmp.dir, 'x.gpkg')}|layername=x` },
      /Only a SELECT/,
    );
  });
});
