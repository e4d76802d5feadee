/**
 * Zonal statistics and the raster calculator in the real worker on real data. Zonal statistics are
 * checked per named canton against gdalwarp -cutline + gdalinfo -stats (the independent way a GIS
 * user would get them); the calculator against gdal_calc.py (numpy) and against facts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertClose, e2eFixture, fixture, gdalCli, ogrSummary, skipReason } from '../testSupport.js';
import { algorithmSuite, ogrRows } from './algorithmTestKit.js';
import { bandStats, gdalInfo, isTiledCompressedGeoTiff, pixels } from './rasterTestSupport.js';

const ELEV = fixture('elev.tif');
const LANDSAT = fixture('L7_ETMs.tif');
const LUX = e2eFixture('lux.shp');

describe('zonal statistics and raster calculator in the worker', { skip: skipReason }, () => {
  const { out, run } = algorithmSuite();

  /** The statistics gdalwarp -cutline + gdalinfo -stats give for one canton (pixel centres inside). */
  function cutlineStats(name: string, allTouched = false): { count: number; sum: number; mean: number; min: number; max: number } {
    const cut = out(`cut_${name}${allTouched ? '_at' : ''}.tif`);
    const touched = allTouched ? ['-wo', 'CUTLINE_ALL_TOUCHED=TRUE'] : [];
    gdalCli('gdalwarp', ['-q', '-cutline', LUX, '-cwhere', `NAME_2 = '${name}'`, ...touched, ELEV, cut]);
    const s = bandStats(cut);
    const [w, h] = gdalInfo(cut).size;
    const count = Math.round((s.validPercent / 100) * w * h);
    return { count, sum: s.mean * count, mean: s.mean, min: s.min, max: s.max };
  }

  test('zonal statistics of Luxembourg’s cantons equal gdalwarp -cutline + gdalinfo -stats', async () => {
    const zs = out('cantons.gpkg');
    const result = await run('zonal_statistics', { zones: LUX, raster: ELEV }, `${zs}|layername=cantons`);
    assert.equal(result.featureCount, 12);
    assert.deepEqual(result.notes[0], 'Fields added: z_count, z_sum, z_mean, z_min, z_max');
    const info = ogrSummary(zs, 'cantons');
    assert.equal(info.featureCount, 12);
    const rows = ogrRows(zs, 'SELECT NAME_2, z_count, z_sum, z_mean, z_min, z_max FROM cantons');
    for (const name of ['Clervaux', 'Luxembourg', 'Esch-sur-Alzette', 'Vianden', 'Remich']) {
      const row = rows.find((r) => r.NAME_2 === name)!;
      const ref = cutlineStats(name);
      assert.equal(Number(row.z_count), ref.count, `${name}: count`);
      assert.equal(Number(row.z_min), ref.min, `${name}: min`);
      assert.equal(Number(row.z_max), ref.max, `${name}: max`);
      assertClose(Number(row.z_mean), ref.mean, 1e-9 * ref.mean, `${name}: mean`);
      assertClose(Number(row.z_sum), ref.sum, 1e-6 * ref.sum, `${name}: sum`);
    }
    // Known facts: Clervaux (the Oesling, north) stands higher than Remich (Moselle valley).
    const mean = (n: string) => Number(rows.find((r) => r.NAME_2 === n)!.z_mean);
    assert.ok(mean('Clervaux') > mean('Remich') + 100);
  });

  test('zonal statistics with zones in another CRS (LUREF) and a chosen subset of fields', async () => {
    const luref = out('lux_2169.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', '-t_srs', 'EPSG:2169', luref, LUX, '-nln', 'lux']);
    const zs = out('cantons_2169.gpkg');
    await run(
      'zonal_statistics',
      { zones: `${luref}|layername=lux`, raster: ELEV, stats: ['count', 'mean'], prefix: 'dem_' },
      `${zs}|layername=z`,
    );
    const info = gdalCli('ogrinfo', ['-ro', '-so', zs, 'z']);
    assert.match(info, /LUREF/, 'the output keeps the zones’ CRS');
    assert.match(info, /dem_count: Integer64/);
    assert.match(info, /dem_mean: Real/);
    assert.doesNotMatch(info, /dem_sum|dem_min/);
    const rows = ogrRows(zs, 'SELECT NAME_2, dem_count, dem_mean FROM z');
    for (const name of ['Clervaux', 'Luxembourg']) {
      const ref = cutlineStats(name);
      const row = rows.find((r) => r.NAME_2 === name)!;
      // Reprojected vertices bend the straight edges a little: a few boundary pixels may differ.
      assert.ok(Math.abs(Number(row.dem_count) - ref.count) <= 0.03 * ref.count, `${name}: ${row.dem_count} vs ${ref.count}`);
      assertClose(Number(row.dem_mean), ref.mean, 0.01 * ref.mean, `${name}: mean`);
    }
  });

  test('zonal statistics with all_touched equal gdalwarp -cutline with CUTLINE_ALL_TOUCHED', async () => {
    const zs = out('cantons_touched.gpkg');
    await run('zonal_statistics', { zones: LUX, raster: ELEV, stats: ['count', 'mean'], all_touched: true }, `${zs}|layername=t`);
    const rows = ogrRows(zs, 'SELECT NAME_2, z_count, z_mean FROM t');
    for (const name of ['Vianden', 'Capellen']) {
      const ref = cutlineStats(name, true);
      const row = rows.find((r) => r.NAME_2 === name)!;
      assert.equal(Number(row.z_count), ref.count, `${name}: count`);
      assert.ok(ref.count > cutlineStats(name).count, `${name}: touching pixels add to the centre-inside ones`);
      assertClose(Number(row.z_mean), ref.mean, 1e-9 * ref.mean, `${name}: mean`);
    }
  });

  test('zonal statistics: a zone off the raster gets count 0 and null statistics; clashing fields are refused', async () => {
    // NC counties lie far from Luxembourg: no pixel in any zone.
    const zs = out('nc_on_lux.gpkg');
    const result = await run('zonal_statistics', { zones: fixture('nc.gpkg'), raster: ELEV }, `${zs}|layername=nc`);
    assert.match(result.notes.join(' '), /100 zone\(s\) hold no valid pixel/);
    const row = ogrRows(zs, "SELECT z_count, z_mean FROM nc WHERE NAME = 'Wake'")[0]!;
    assert.equal(row.z_count, '0');
    assert.equal(row.z_mean, null);
    // The output already has z_count …: a second run with the same prefix would clash.
    await assert.rejects(
      run('zonal_statistics', { zones: `${zs}|layername=nc`, raster: ELEV }, `${out('clash.gpkg')}|layername=c`),
      (err: Error) => /already has a field 'z_count'; choose another prefix/.test(err.message),
    );
  });

  test('raster calculator: NDVI of the Landsat scene equals gdal_calc.py’s', async () => {
    const ours = out('ndvi.tif');
    const result = await run('raster_calculator', { inputs: [LANDSAT], expression: '(A4 - A3) / (A4 + A3)' }, ours);
    assert.match(result.notes[0]!, /349 × 352 pixels/);
    const ref = out('ndvi_ref.tif');
    gdalCli('gdal_calc.py', [
      '--quiet',
      '-A',
      LANDSAT,
      '--A_band',
      '4',
      '-B',
      LANDSAT,
      '--B_band',
      '3',
      '--calc',
      '(A.astype(float) - B) / (A.astype(float) + B)',
      '--type',
      'Float32',
      '--NoDataValue',
      '-9999',
      '--outfile',
      ref,
    ]);
    const a = bandStats(ours);
    const b = bandStats(ref);
    assertClose(a.mean, b.mean, 1e-6, 'mean NDVI');
    assert.equal(a.min, b.min);
    assert.equal(a.max, b.max);
    const points = [
      [10, 10],
      [100, 200],
      [300, 50],
      [200, 300],
    ] as const;
    assert.deepEqual(pixels(ours, points), pixels(ref, points));
    const info = gdalInfo(ours);
    assert.deepEqual(info.geoTransform, gdalInfo(LANDSAT).geoTransform);
    assert.match(info.coordinateSystem!.wkt, /UTM zone 25S/);
    assert.equal(info.bands[0]!.type, 'Float32');
    assert.ok(isTiledCompressedGeoTiff(ours));
  });

  test('raster calculator: classes with where(); nodata in, nodata out; a finer raster aligned onto the first', async () => {
    const classes = out('classes.tif');
    await run('raster_calculator', { inputs: [ELEV], expression: 'where(A1 > 400, 2, 1)', data_type: 'Byte', nodata: 0 }, classes);
    const hist = JSON.parse(gdalCli('gdalinfo', ['-json', '-hist', classes])).bands[0].histogram as { buckets: number[] };
    const high = out('high.tif');
    gdalCli('gdal_calc.py', ['--quiet', '-A', ELEV, '--calc', 'A > 400', '--type', 'Byte', '--NoDataValue', '255', '--outfile', high]);
    const refHist = JSON.parse(gdalCli('gdalinfo', ['-json', '-hist', high])).bands[0].histogram as { buckets: number[] };
    assert.equal(hist.buckets[2], refHist.buckets[1], 'pixels above 400 m');
    assert.equal(hist.buckets[1], refHist.buckets[0], 'pixels at or below 400 m');
    // gdalinfo's histogram leaves nodata out: its total is the DEM's valid pixel count.
    const demHist = JSON.parse(gdalCli('gdalinfo', ['-json', '-hist', ELEV])).bands[0].histogram as { buckets: number[] };
    const validDem = demHist.buckets.reduce((a, b) => a + b, 0);
    assert.ok(validDem > 4000 && validDem < 95 * 90, `the DEM has nodata around Luxembourg (${validDem} valid)`);
    assert.equal(hist.buckets[1]! + hist.buckets[2]!, validDem, 'every valid DEM pixel is classed, nodata stays nodata');
    assert.equal(gdalInfo(classes).bands[0]!.noDataValue, 0);

    // The DEM resampled 3× finer (each pixel becomes 3 × 3): nearest back onto the DEM's grid is the DEM.
    const fine = out('elev_fine3.tif');
    const gt = gdalInfo(ELEV).geoTransform;
    gdalCli('gdalwarp', ['-q', '-tr', String(gt[1]! / 3), String(Math.abs(gt[5]!) / 3), '-r', 'near', ELEV, fine]);
    const diff = out('diff.tif');
    const result = await run('raster_calculator', { inputs: [ELEV, fine], expression: 'A1 - B1' }, diff);
    assert.match(result.notes.join(' '), /Input B was resampled \(nearest\)/);
    const d = bandStats(diff);
    assert.deepEqual([d.min, d.max], [0, 0]);
    assert.deepEqual(gdalInfo(diff).size, [95, 90]);
  });

  test('raster calculator refuses a band the input does not have', async () => {
    await assert.rejects(run('raster_calculator', { inputs: [ELEV], expression: 'A2 * 2' }, out('bad.tif')), (err: Error) =>
      /A2: .*elev\.tif \(input A\) has 1 band/.test(err.message),
    );
  });
});
