import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { LayerInfo } from '../../src-shared/domain/layer.js';
import { describeSource } from './describeSource.js';
import { BadInputError } from './errors.js';
import { assertClose, fixture, gdalCli, makeTempDir, ogrSummary, skipReason } from './testSupport.js';

const tmp = makeTempDir();
after(() => tmp.cleanup());

/** Our bbox must contain the reference and be no bigger than `slack` beyond it. */
function assertBBoxNear(actual: number[] | null, expected: number[], slack: number, what: string): void {
  assert.ok(actual, `${what}: extent missing`);
  for (let i = 0; i < 4; i++) assertClose(actual[i]!, expected[i]!, slack, `${what}[${i}]`);
}

describe('describeSource: vectors', { skip: skipReason }, () => {
  const vectorCases = [
    'ne_110m_admin_0_countries.json',
    'countries.fgb',
    'nc.gpkg',
    'scot_BNG.shp',
    'trin_inca_pl03.shp',
    'meuse.sqlite',
    'addresses.kml',
  ];
  for (const name of vectorCases) {
    test(`${name}: feature count and extent agree with ogrinfo`, async () => {
      const info = LayerInfo.parse(await describeSource(fixture(name)));
      const ref = ogrSummary(fixture(name));
      assert.equal(info.kind, 'vector');
      assert.equal(info.featureCount, ref.featureCount);
      assertBBoxNear(info.extent, ref.extent!, 1e-6, 'extent');
    });
  }

  test('Natural Earth countries: 177 features, WGS 84, polygons', async () => {
    const info = await describeSource(fixture('ne_110m_admin_0_countries.json'));
    assert.equal(info.driver, 'GeoJSON');
    assert.equal(info.featureCount, 177);
    assert.deepEqual(info.crs, { epsg: 4326, name: 'WGS 84', geographic: true });
    // The header says "Unknown"; the features are a mix of Polygon and MultiPolygon.
    assert.equal(info.geometryType, 'MultiPolygon');
    assert.ok(info.fields.some((f) => f.name === 'NAME' && f.type === 'string'));
    assert.deepEqual(info.sublayers, ['ne_110m_admin_0_countries']);
  });

  test('nc.gpkg: NAD27 (EPSG:4267), 100 counties, lon/lat order in extent4326', async () => {
    const info = await describeSource(fixture('nc.gpkg'));
    assert.equal(info.driver, 'GPKG');
    assert.equal(info.crs?.epsg, 4267);
    assert.equal(info.crs?.geographic, true);
    assert.equal(info.geometryType, 'MultiPolygon');
    assert.equal(info.featureCount, 100);
    // North Carolina: longitude about -84..-75, latitude 33..37. A lat/lon swap would show here.
    assertBBoxNear(info.extent4326, [-84.32, 33.88, -75.46, 36.59], 0.01, 'extent4326');
  });

  test('scot_BNG.shp: British National Grid, extent4326 matches an ogr2ogr-densified bbox', async () => {
    const info = await describeSource(fixture('scot_BNG.shp'));
    assert.equal(info.crs?.epsg, 27700);
    assert.equal(info.crs?.geographic, false);
    assert.match(info.crs?.name ?? '', /British National Grid/);
    // Referee: the source bbox as a polygon, densified every 1 km and reprojected by ogr2ogr.
    const [w, s, e, n] = info.extent!;
    const box = path.join(tmp.dir, 'box.geojson');
    writeFileSync(
      box,
      JSON.stringify({
        type: 'Feature',
        properties: {},
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [w, s],
              [e, s],
              [e, n],
              [w, n],
              [w, s],
            ],
          ],
        },
      }),
    );
    const out = path.join(tmp.dir, 'box4326.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', '-s_srs', 'EPSG:27700', '-t_srs', 'EPSG:4326', '-segmentize', '1000', out, box]);
    assertBBoxNear(info.extent4326, ogrSummary(out).extent!, 0.01, 'extent4326');
    // Every reprojected feature lies inside it.
    const feats = path.join(tmp.dir, 'scot4326.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', '-t_srs', 'EPSG:4326', feats, fixture('scot_BNG.shp')]);
    const f = ogrSummary(feats).extent!;
    const x = info.extent4326!;
    assert.ok(x[0] <= f[0] && x[1] <= f[1] && x[2] >= f[2] && x[3] >= f[3], `${x} holds ${f}`);
  });

  test('describing many files in a row never mixes up their CRSs', async () => {
    // gdal-async caches SRS wrappers by GDAL's object address; a stale entry once made
    // nc.gpkg report EPSG:4326. Interleave files so freed addresses get reused.
    const expected: [string, number | null][] = [
      ['nc.gpkg', 4267],
      ['scot_BNG.shp', 27700],
      ['ne_110m_admin_0_countries.json', 4326],
      ['meuse.sqlite', 28992],
      ['trin_inca_pl03.shp', null],
      ['L7_ETMs.tif', 31985],
    ];
    for (let round = 0; round < 5; round++) {
      for (const [name, epsg] of expected) {
        const info = await describeSource(fixture(name));
        assert.equal(info.crs?.epsg ?? null, epsg, `${name}, round ${round}`);
      }
    }
  });

  test('shapefile without .prj: crs and extent4326 are null, NULL geometry counted', async () => {
    const info = await describeSource(fixture('trin_inca_pl03.shp'));
    assert.equal(info.crs, null);
    assert.equal(info.extent4326, null);
    assert.equal(info.featureCount, 3);
  });

  test('CSV with X/Y columns: points in WGS 84, coordinate columns not repeated as fields', async () => {
    const info = await describeSource(fixture('cycle_hire_xy.csv'));
    const rows = readFileSync(fixture('cycle_hire_xy.csv'), 'utf8').trim().split('\n').length - 1;
    assert.equal(info.featureCount, rows);
    assert.equal(info.geometryType, 'Point');
    assert.equal(info.crs?.epsg, 4326);
    assert.deepEqual(
      info.fields.map((f) => f.name),
      ['id', 'name', 'area', 'nbikes', 'nempty'],
    );
    assert.equal(info.fields.find((f) => f.name === 'nbikes')?.type, 'integer');
    const ref = ogrSummary(fixture('cycle_hire_xy.csv'), undefined, ['-oo', 'X_POSSIBLE_NAMES=X', '-oo', 'Y_POSSIBLE_NAMES=Y']);
    assertBBoxNear(info.extent4326, ref.extent!, 1e-6, 'extent4326');
  });

  test('CSV with lon/lat column names', async () => {
    const csv = path.join(tmp.dir, 'towns.csv');
    writeFileSync(csv, 'name,Longitude,Latitude\nA,10.5,45.25\nB,11,46\n');
    const info = await describeSource(csv);
    assert.equal(info.geometryType, 'Point');
    assert.deepEqual(info.extent4326, [10.5, 45.25, 11, 46]);
    assert.deepEqual(
      info.fields.map((f) => f.name),
      ['name'],
    );
  });

  test('KML and FlatGeobuf: drivers, sublayer names, mixed and empty layers', async () => {
    const kml = await describeSource(fixture('addresses.kml'));
    assert.match(kml.driver, /KML/);
    assert.equal(kml.geometryType, 'LineString');
    assert.equal(kml.sublayers.length, 1);

    const fgb = await describeSource(fixture('countries.fgb'));
    assert.equal(fgb.driver, 'FlatGeobuf');
    assert.equal(fgb.featureCount, 179);
    assert.equal(fgb.geometryType, 'MultiPolygon');

    const mixed = await describeSource(fixture('heterogeneous.fgb'));
    assert.equal(mixed.geometryType, 'Mixed');

    const empty = await describeSource(fixture('empty.fgb'));
    assert.equal(empty.featureCount, 0);
    assert.equal(empty.extent, null);
    assert.equal(empty.extent4326, null);
    assert.equal(empty.geometryType, 'Polygon');
  });

  test('multi-layer GeoPackage: first layer by default, others listed, |layername= picks one', async () => {
    const gpkg = path.join(tmp.dir, 'multi.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', '-nln', 'counties', gpkg, fixture('nc.gpkg')]);
    gdalCli('ogr2ogr', ['-update', '-f', 'GPKG', '-nln', 'scotland', gpkg, fixture('scot_BNG.shp')]);

    const first = await describeSource(gpkg);
    assert.deepEqual(first.sublayers, ['counties', 'scotland']);
    assert.equal(first.featureCount, 100);

    const scot = await describeSource(`${gpkg}|layername=scotland`);
    assert.equal(scot.featureCount, 56);
    assert.equal(scot.crs?.epsg, 27700);

    await assert.rejects(describeSource(`${gpkg}|layername=rivers`), (err: Error) => {
      assert.ok(err instanceof BadInputError);
      assert.equal(err.message, `No layer named 'rivers' in ${gpkg}; layers: counties, scotland`);
      return true;
    });
  });
});

describe('describeSource: rasters', { skip: skipReason }, () => {
  test('elev.tif agrees with gdalinfo -json -mm', async () => {
    const info = LayerInfo.parse(await describeSource(fixture('elev.tif')));
    const ref = JSON.parse(gdalCli('gdalinfo', ['-json', '-mm', fixture('elev.tif')]));
    assert.equal(info.kind, 'raster');
    assert.equal(info.driver, 'GTiff');
    assert.equal(info.width, ref.size[0]);
    assert.equal(info.height, ref.size[1]);
    assert.equal(info.crs?.epsg, 4326);
    const band = info.bands[0]!;
    assert.equal(band.dataType, ref.bands[0].type);
    assert.equal(band.nodata, ref.bands[0].noDataValue);
    assert.equal(band.min, ref.bands[0].computedMin);
    assert.equal(band.max, ref.bands[0].computedMax);
    const [x0, dx, , y0, , dy] = ref.geoTransform as number[];
    const expected = [x0!, y0! + dy! * ref.size[1], x0! + dx! * ref.size[0], y0!];
    assertBBoxNear(info.extent, expected, 1e-9, 'extent');
    assertBBoxNear(info.extent4326, expected, 1e-9, 'extent4326');
  });

  test('L7_ETMs.tif: 6 bands, UTM 25S, extent4326 holds gdalinfo wgs84Extent', async () => {
    const info = await describeSource(fixture('L7_ETMs.tif'));
    const ref = JSON.parse(gdalCli('gdalinfo', ['-json', '-mm', fixture('L7_ETMs.tif')]));
    assert.equal(info.bands.length, 6);
    assert.equal(info.crs?.epsg, 31985);
    assert.equal(info.crs?.geographic, false);
    for (const [i, band] of info.bands.entries()) {
      // Small rasters get exact statistics, not the overview's approximation.
      assert.equal(band.dataType, 'Byte');
      assert.equal(band.min, ref.bands[i].computedMin, `band ${i + 1} min`);
      assert.equal(band.max, ref.bands[i].computedMax, `band ${i + 1} max`);
    }
    const ring: number[][] = ref.wgs84Extent.coordinates[0];
    const lons = ring.map((p) => p[0]!);
    const lats = ring.map((p) => p[1]!);
    assertBBoxNear(info.extent4326, [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)], 1e-4, 'extent4326');
  });

  test('describing a raster writes no .aux.xml beside it', async () => {
    const copy = path.join(tmp.dir, 'elev-copy.tif');
    copyFileSync(fixture('elev.tif'), copy);
    await describeSource(copy);
    assert.ok(!existsSync(`${copy}.aux.xml`));
    assert.deepEqual(
      readdirSync(tmp.dir).filter((f) => f.endsWith('.aux.xml')),
      [],
    );
  });

  test('truncated GeoTIFF is bad input that names the file', async () => {
    await assert.rejects(describeSource(fixture('truncated.tiff')), (err: Error) => {
      assert.ok(err instanceof BadInputError, err.message);
      assert.match(err.message, /truncated\.tiff/);
      assert.match(err.message, /damaged or incomplete/);
      return true;
    });
  });
});
