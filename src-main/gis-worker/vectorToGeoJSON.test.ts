import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { BadInputError } from './errors.js';
import { assertClose, fixture, gdalCli, makeTempDir, skipReason } from './testSupport.js';
import { vectorToGeoJSON } from './vectorToGeoJSON.js';

interface Feature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: unknown } | null;
}
interface FC {
  type: 'FeatureCollection';
  features: Feature[];
}

const tmp = makeTempDir();
after(() => tmp.cleanup());

async function load(source: string): Promise<FC> {
  const text = await vectorToGeoJSON(source);
  return JSON.parse(text) as FC;
}

function allPositions(geom: Feature['geometry']): number[][] {
  const out: number[][] = [];
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') out.push(c as number[]);
    else if (Array.isArray(c)) c.forEach(walk);
  };
  if (geom) walk(geom.coordinates);
  return out;
}

describe('vectorToGeoJSON', { skip: skipReason }, () => {
  test('British National Grid is reprojected to lon/lat, matching ogr2ogr', async () => {
    const fc = await load(fixture('scot_BNG.shp'));
    assert.equal(fc.type, 'FeatureCollection');
    assert.equal(fc.features.length, 56);
    for (const f of fc.features) {
      for (const [lon, lat] of allPositions(f.geometry)) {
        assert.ok(lon! > -9.3 && lon! < -0.7 && lat! > 54.5 && lat! < 60.9, `Scotland in lon/lat: ${lon}, ${lat}`);
      }
    }
    const ref = JSON.parse(gdalCli('ogr2ogr', ['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', '/vsistdout/', fixture('scot_BNG.shp')])) as FC;
    const ours = allPositions(fc.features[0]!.geometry)[0]!;
    const theirs = allPositions(ref.features[0]!.geometry)[0]!;
    assertClose(ours[0]!, theirs[0]!, 1e-6, 'lon');
    assertClose(ours[1]!, theirs[1]!, 1e-6, 'lat');
    assert.equal(fc.features[0]!.properties.NAME, ref.features[0]!.properties.NAME);
  });

  test('NAD27 counties and Natural Earth countries: every feature, all properties', async () => {
    const nc = await load(fixture('nc.gpkg'));
    assert.equal(nc.features.length, 100);
    assert.equal(Object.keys(nc.features[0]!.properties).length, 14);
    const ne = await load(fixture('ne_110m_admin_0_countries.json'));
    assert.equal(ne.features.length, 177);
    assert.ok(ne.features.some((f) => f.properties.NAME === 'France'));
  });

  test('NULL geometry stays null; a source without CRS but with degrees passes through', async () => {
    const fc = await load(fixture('trin_inca_pl03.shp'));
    assert.equal(fc.features.length, 3);
    assert.equal(fc.features.filter((f) => f.geometry === null).length, 1);
    const ref = JSON.parse(gdalCli('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', fixture('trin_inca_pl03.shp')])) as FC;
    const withGeom = ref.features.findIndex((f) => f.geometry !== null);
    const ours = allPositions(fc.features[withGeom]!.geometry)[0]!;
    const theirs = allPositions(ref.features[withGeom]!.geometry)[0]!;
    assertClose(ours[0]!, theirs[0]!, 1e-6, 'x');
    assertClose(ours[1]!, theirs[1]!, 1e-6, 'y');
  });

  test('no CRS and coordinates that are not degrees: a readable refusal', async () => {
    const dir = path.join(tmp.dir, 'noprj');
    gdalCli('ogr2ogr', ['-f', 'ESRI Shapefile', dir, fixture('scot_BNG.shp')]);
    rmSync(path.join(dir, 'scot_BNG.prj'));
    await assert.rejects(vectorToGeoJSON(path.join(dir, 'scot_BNG.shp')), (err: Error) => {
      assert.ok(err instanceof BadInputError);
      assert.match(err.message, /no coordinate reference system/);
      assert.match(err.message, /scot_BNG\.shp/);
      return true;
    });
  });

  test('CSV points, KML, FlatGeobuf, empty layer', async () => {
    const csv = await load(fixture('cycle_hire_xy.csv'));
    const rows = readFileSync(fixture('cycle_hire_xy.csv'), 'utf8').trim().split('\n');
    assert.equal(csv.features.length, rows.length - 1);
    const [x, y] = rows[1]!.split(',').map(Number);
    const first = csv.features[0]!;
    assert.equal(first.geometry?.type, 'Point');
    assertClose((first.geometry!.coordinates as number[])[0]!, x!, 1e-6, 'lon');
    assertClose((first.geometry!.coordinates as number[])[1]!, y!, 1e-6, 'lat');
    assert.equal(first.properties.nbikes, 4);

    assert.equal((await load(fixture('addresses.kml'))).features.length, 15);
    assert.equal((await load(fixture('countries.fgb'))).features.length, 179);
    assert.deepEqual((await load(fixture('empty.fgb'))).features, []);
  });

  test('dates and date-times become ISO 8601 strings', async () => {
    const csv = path.join(tmp.dir, 'when.csv');
    writeFileSync(csv, 'id,when,day,lon,lat\n1,2020-01-31T10:20:30Z,2020-01-31,1.5,2.5\n');
    const gpkg = path.join(tmp.dir, 'when.gpkg');
    gdalCli('ogr2ogr', [
      '-f',
      'GPKG',
      '-a_srs',
      'EPSG:4326',
      '-oo',
      'X_POSSIBLE_NAMES=lon',
      '-oo',
      'Y_POSSIBLE_NAMES=lat',
      '-oo',
      'AUTODETECT_TYPE=YES',
      gpkg,
      csv,
    ]);
    assert.match(gdalCli('ogrinfo', ['-so', '-al', gpkg]), /when: DateTime/);
    const fc = await load(gpkg);
    assert.equal(fc.features[0]!.properties.when, '2020-01-31T10:20:30Z');
    assert.equal(fc.features[0]!.properties.day, '2020-01-31');
  });

  test('a sublayer of a GeoPackage, and a raster refused', async () => {
    const gpkg = path.join(tmp.dir, 'two.gpkg');
    copyFileSync(fixture('nc.gpkg'), gpkg);
    gdalCli('ogr2ogr', ['-update', '-f', 'GPKG', '-nln', 'scotland', gpkg, fixture('scot_BNG.shp')]);
    assert.equal((await load(`${gpkg}|layername=scotland`)).features.length, 56);
    await assert.rejects(vectorToGeoJSON(fixture('elev.tif')), BadInputError);
  });

  test('progress is reported', async () => {
    const seen: number[] = [];
    await vectorToGeoJSON(fixture('scot_BNG.shp'), undefined, (f) => seen.push(f));
    assert.ok(seen.length > 0);
    assert.ok(seen.every((f) => f >= 0 && f <= 1));
  });
});
