/**
 * Contours, polygonize and rasterize in the real worker on real data, judged by GDAL's own
 * command-line programs (gdal_contour, gdal_polygonize.py, gdal_rasterize, gdalinfo -hist) and by
 * facts: the polygons of each class cover exactly its pixels, a county's pixels carry its value.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertClose, fixture, gdalCli, ogrSummary, skipReason } from '../testSupport.js';
import { algorithmSuite, ogrRows } from './algorithmTestKit.js';
import { gdalInfo, isTiledCompressedGeoTiff, pixelAt } from './rasterTestSupport.js';

const ELEV = fixture('elev.tif');
const LC = fixture('lc.tif');
const NC = fixture('nc.gpkg');

describe('raster ↔ vector algorithms in the worker', { skip: skipReason }, () => {
  const { out, run } = algorithmSuite();

  test('contours of the Luxembourg DEM: the same lines per level as gdal_contour', async () => {
    const ours = out('contours.gpkg');
    const result = await run('contours', { input: ELEV, interval: 50, attribute: 'elev' }, `${ours}|layername=contours`);
    const cli = out('contours_cli.gpkg');
    gdalCli('gdal_contour', ['-q', '-i', '50', '-a', 'elev', ELEV, cli]);
    const theirs = ogrSummary(cli);
    assert.equal(result.featureCount, theirs.featureCount);
    assert.ok(theirs.featureCount > 100, `a real DEM gives many lines (${theirs.featureCount})`);
    const mine = ogrSummary(ours, 'contours');
    assert.equal(mine.featureCount, theirs.featureCount);
    assert.match(mine.geometry, /Line String/);
    const perLevel = (src: string, layer: string) =>
      ogrRows(src, `SELECT elev, COUNT(*) AS n, SUM(ST_Length(geom)) AS len FROM "${layer}" GROUP BY elev ORDER BY elev`);
    const a = perLevel(ours, 'contours');
    const b = perLevel(cli, 'contour');
    assert.deepEqual(
      a.map((r) => [Number(r.elev), Number(r.n)]),
      b.map((r) => [Number(r.elev), Number(r.n)]),
    );
    for (const [i, r] of a.entries()) assertClose(Number(r.len), Number(b[i]!.len), 1e-9 * Number(r.len), `length at ${r.elev} m`);
    // elev.tif spans about 140–550 m: levels 150 … 500.
    assert.deepEqual([Number(a[0]!.elev), Number(a.at(-1)!.elev)], [150, 500]);
  });

  test('contours with a base: every level is base + k × interval', async () => {
    const ours = out('contours25.gpkg');
    await run('contours', { input: ELEV, interval: 50, base: 25, attribute: 'height' }, `${ours}|layername=c25`);
    const levels = ogrRows(ours, 'SELECT DISTINCT height FROM c25').map((r) => Number(r.height));
    assert.ok(levels.length > 5);
    for (const level of levels) assert.equal((level - 25) % 50, 0, `level ${level}`);
    const cli = out('contours25_cli.gpkg');
    gdalCli('gdal_contour', ['-q', '-i', '50', '-off', '25', '-a', 'height', ELEV, cli]);
    assert.equal(ogrSummary(ours, 'c25').featureCount, ogrSummary(cli).featureCount);
  });

  test('polygonize land cover: gdal_polygonize’s count, and each class’s polygons cover exactly its pixels', async () => {
    const ours = out('lc_poly.gpkg');
    const result = await run('polygonize', { input: LC, field: 'class' }, `${ours}|layername=lc`);
    const cli = out('lc_poly_cli.gpkg');
    gdalCli('gdal_polygonize.py', ['-q', LC, '-f', 'GPKG', cli, 'out', 'class']);
    assert.equal(result.featureCount, ogrSummary(cli, 'out').featureCount);

    const histogram = JSON.parse(gdalCli('gdalinfo', ['-json', '-hist', LC])).bands[0].histogram as { buckets: number[]; min: number };
    const pixelArea = 3000 * 3000;
    const areas = ogrRows(ours, 'SELECT class, SUM(ST_Area(geom)) AS area FROM lc GROUP BY class');
    const classes = histogram.buckets.flatMap((count, i) => (count > 0 ? [i] : []));
    assert.deepEqual(
      areas.map((r) => Number(r.class)).sort((a, b) => a - b),
      classes,
    );
    for (const r of areas) assertClose(Number(r.area), histogram.buckets[Number(r.class)]! * pixelArea, 1e-3, `area of class ${r.class}`);

    const eight = out('lc_poly8.gpkg');
    const r8 = await run('polygonize', { input: LC, connectedness: 8 }, `${eight}|layername=lc8`);
    const cli8 = out('lc_poly8_cli.gpkg');
    gdalCli('gdal_polygonize.py', ['-q', '-8', LC, '-f', 'GPKG', cli8, 'out', 'value']);
    assert.equal(r8.featureCount, ogrSummary(cli8, 'out').featureCount);
    assert.ok(r8.featureCount! < result.featureCount!, '8-connected regions merge diagonal neighbours');
  });

  test('polygonize leaves nodata out and refuses a large continuous raster', async () => {
    const ours = out('elev_poly.gpkg');
    // elev.tif is small enough to polygonize; its nodata (-32768) area must not become a polygon.
    await run('polygonize', { input: ELEV }, `${ours}|layername=p`);
    const nodata = ogrRows(ours, 'SELECT COUNT(*) AS n FROM p WHERE value = -32768');
    assert.equal(Number(nodata[0]!.n), 0);
    // The same DEM as Float32 at 0.0003° (6.6 million pixels): about one polygon per pixel.
    const fine = out('elev_fine.tif');
    gdalCli('gdalwarp', ['-q', '-ot', 'Float32', '-tr', '0.0003', '0.0003', '-r', 'bilinear', ELEV, fine]);
    await assert.rejects(run('polygonize', { input: fine }, `${out('fine.gpkg')}|layername=f`), (err: Error) =>
      /continuous values \(Float32, \d+ × \d+ pixels\).*Reclassify it first with raster_calculator/.test(err.message),
    );
  });

  test('rasterize NC counties by an attribute: gdal_rasterize’s pixels, and Wake County’s value at Raleigh', async () => {
    const ours = out('nc_bir74.tif');
    const result = await run('rasterize', { input: NC, resolution: 0.02, attribute: 'BIR74' }, ours);
    assert.match(result.notes[0]!, /nodata -9999/);
    const cli = out('nc_bir74_cli.tif');
    gdalCli('gdal_rasterize', [
      '-q',
      '-l',
      'nc.gpkg',
      '-a',
      'BIR74',
      '-tr',
      '0.02',
      '0.02',
      '-ot',
      'Float32',
      '-a_nodata',
      '-9999',
      '-init',
      '-9999',
      NC,
      cli,
    ]);
    const a = gdalInfo(ours, { checksum: true });
    const b = gdalInfo(cli, { checksum: true });
    assert.deepEqual(a.size, b.size);
    assert.deepEqual(a.geoTransform, b.geoTransform);
    assert.equal(a.bands[0]!.checksum, b.bands[0]!.checksum);
    assert.match(a.coordinateSystem!.wkt, /NAD27/);
    assert.ok(isTiledCompressedGeoTiff(ours));
    const wake = Number(ogrRows(NC, `SELECT BIR74 FROM "nc.gpkg" WHERE NAME = 'Wake'`)[0]!.BIR74);
    assert.equal(pixelAt(ours, -78.64, 35.78), wake, 'Raleigh lies in Wake County');
    assert.equal(pixelAt(ours, -76.2, 34.2), -9999, 'the Atlantic off Cape Lookout is nodata');
  });

  test('rasterize with a burn value and all_touched burns more pixels; bad fields are explained', async () => {
    const plain = out('nc_burn.tif');
    const touched = out('nc_burn_at.tif');
    await run('rasterize', { input: NC, resolution: 0.05, burn_value: 7, data_type: 'Byte' }, plain);
    await run('rasterize', { input: NC, resolution: 0.05, burn_value: 7, data_type: 'Byte', all_touched: true }, touched);
    const count = (file: string) => {
      const h = JSON.parse(gdalCli('gdalinfo', ['-json', '-hist', file])).bands[0].histogram as { buckets: number[] };
      return h.buckets[7]!;
    };
    assert.ok(count(touched) > count(plain), `${count(touched)} > ${count(plain)}`);
    assert.equal(gdalInfo(plain).bands[0]!.noDataValue, 0);
    await assert.rejects(run('rasterize', { input: NC, resolution: 0.05, attribute: 'NAME' }, out('bad.tif')), (err: Error) =>
      /'NAME' .* is string, not a number; numeric fields: .*BIR74/.test(err.message),
    );
    await assert.rejects(run('rasterize', { input: NC, resolution: 1e-6 }, out('huge.tif')), (err: Error) =>
      /more than 1,000,000,000\).*larger than/.test(err.message),
    );
  });
});
