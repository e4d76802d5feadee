/**
 * Warp, mosaic and clip in the real worker on real rasters, judged by GDAL's command-line tools
 * (gdalwarp, gdal_translate, gdalinfo, gdallocationinfo, gdaltransform) and by facts: a raster cut
 * in two and mosaicked back is the raster again, pixel for pixel.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { e2eFixture, fixture, gdalCli, skipReason } from '../testSupport.js';
import { algorithmSuite } from './algorithmTestKit.js';
import { bandStats, gdalInfo, isTiledCompressedGeoTiff, pixelAt, pixels } from './rasterTestSupport.js';

const ELEV = fixture('elev.tif'); // 95 × 90, EPSG:4326, nodata -32768
const LUX = e2eFixture('lux.shp'); // Luxembourg's 12 cantons, EPSG:4326

describe('warp, mosaic and clip in the worker', { skip: skipReason }, () => {
  const { out, run } = algorithmSuite();
  const checksum = (file: string) => gdalInfo(file, { checksum: true }).bands[0]!.checksum;
  /** Columns first … first + width − 1 of the DEM (all its 90 rows) as a GeoTIFF of their own. */
  const columns = (name: string, first: number, width: number): string => {
    const file = out(name);
    gdalCli('gdal_translate', ['-q', '-srcwin', String(first), '0', String(width), '90', ELEV, file]);
    return file;
  };

  test('warp to UTM 32N: gdalwarp’s grid and pixels; values at source pixel centres kept', async () => {
    const ours = out('elev_utm.tif');
    const result = await run('warp', { input: ELEV, target_crs: 'EPSG:32632', resolution: 100 }, ours);
    assert.match(result.notes[0]!, /100 × 100 EPSG:32632 units/);
    const cli = out('elev_utm_cli.tif');
    gdalCli('gdalwarp', ['-q', '-t_srs', 'EPSG:32632', '-tr', '100', '100', '-r', 'near', ELEV, cli]);
    const a = gdalInfo(ours);
    assert.match(a.coordinateSystem!.wkt, /UTM zone 32N/);
    assert.deepEqual(a.size, gdalInfo(cli).size);
    assert.deepEqual(a.geoTransform, gdalInfo(cli).geoTransform);
    assert.equal(checksum(ours), checksum(cli));
    assert.equal(a.bands[0]!.noDataValue, -32768);
    assert.ok(isTiledCompressedGeoTiff(ours));
    // Source pixel centres (lon/lat) keep their elevation under nearest resampling.
    const gt = gdalInfo(ELEV).geoTransform;
    for (const [c, r] of [
      [30, 30],
      [50, 40],
      [70, 60],
    ] as const) {
      const lon = gt[0]! + (c + 0.5) * gt[1]!;
      const lat = gt[3]! + (r + 0.5) * gt[5]!;
      assert.equal(pixelAt(ours, lon, lat, '-wgs84'), pixels(ELEV, [[c, r]])[0], `elevation at ${lon}, ${lat}`);
    }
  });

  test('mosaic: two overlapping halves of the DEM make the DEM again; the later input wins the overlap', async () => {
    const west = columns('west.tif', 0, 60);
    const east = columns('east.tif', 40, 55);
    const ours = out('mosaic.tif');
    const result = await run('mosaic', { inputs: [west, east] }, ours);
    assert.match(result.notes.join(' '), /95 × 90 pixels from 2 rasters/);
    const info = gdalInfo(ours);
    assert.deepEqual(info.size, [95, 90]);
    assert.deepEqual(info.geoTransform, gdalInfo(ELEV).geoTransform);
    assert.equal(checksum(ours), checksum(ELEV));
    assert.equal(info.bands[0]!.noDataValue, -32768);

    // East raised by 1000 m: in the overlap (columns 40–59) the later input shows.
    const raised = out('east_raised.tif');
    gdalCli('gdal_calc.py', ['--quiet', '-A', east, '--calc', 'A+1000', '--NoDataValue', '-32768', '--outfile', raised]);
    const eastOnTop = out('mosaic_east_top.tif');
    const westOnTop = out('mosaic_west_top.tif');
    await run('mosaic', { inputs: [west, raised] }, eastOnTop);
    await run('mosaic', { inputs: [raised, west] }, westOnTop);
    const [source] = pixels(ELEV, [[50, 40]]);
    assert.deepEqual(pixels(eastOnTop, [[50, 40]]), [source! + 1000]);
    assert.deepEqual(pixels(westOnTop, [[50, 40]]), [source]);
  });

  test('mosaic with a gap: the gap is nodata; rasters of different bands are refused', async () => {
    const west = columns('west_gap.tif', 0, 40);
    const east = columns('east_gap.tif', 60, 35);
    const ours = out('mosaic_gap.tif');
    await run('mosaic', { inputs: [west, east] }, ours);
    assert.deepEqual(
      pixels(ours, [
        [50, 40],
        [70, 60],
      ]),
      [-32768, pixels(ELEV, [[70, 60]])[0]],
    );
    await assert.rejects(run('mosaic', { inputs: [ELEV, fixture('L7_ETMs.tif')] }, out('bad.tif')), (err: Error) =>
      /same bands: .* has 1, .* has 6/.test(err.message),
    );
  });

  test('clip by a bbox: whole source pixels, as gdal_translate -projwin cuts them', async () => {
    const ours = out('clip_bbox.tif');
    await run('clip_raster', { input: ELEV, bbox: [6.0, 49.6, 6.2, 49.8] }, ours);
    const cli = out('clip_bbox_cli.tif');
    gdalCli('gdal_translate', ['-q', '-projwin', '6.0', '49.8', '6.2', '49.6', ELEV, cli]);
    assert.deepEqual(gdalInfo(ours).size, gdalInfo(cli).size);
    assert.deepEqual(
      gdalInfo(ours).geoTransform.map((v) => +v.toFixed(9)),
      gdalInfo(cli).geoTransform.map((v) => +v.toFixed(9)),
    );
    assert.equal(checksum(ours), checksum(cli));
    // Same elevation at the same place.
    assert.equal(pixelAt(ours, 6.13, 49.61), pixelAt(ELEV, 6.13, 49.61));
  });

  test('clip by a bbox in another CRS covers the transformed box; a box elsewhere is refused', async () => {
    // Around Luxembourg City in UTM 32N metres.
    const box = [286000, 5498000, 300000, 5510000];
    const ours = out('clip_utm_bbox.tif');
    await run('clip_raster', { input: ELEV, bbox: box, bbox_crs: 'EPSG:32632' }, ours);
    const corners = utmCornersInLonLat(box);
    const info = gdalInfo(ours);
    const [x0, dx, , y0, , dy] = info.geoTransform as [number, number, number, number, number, number];
    const [w, h] = info.size;
    for (const [lon, lat] of corners) {
      assert.ok(lon >= x0 && lon <= x0 + w * dx && lat <= y0 && lat >= y0 + h * dy, `corner ${lon}, ${lat} inside the clip`);
    }
    assert.ok(w * Math.abs(dx) < 0.22 && h * Math.abs(dy) < 0.13, 'not much larger than the box');
    await assert.rejects(run('clip_raster', { input: ELEV, bbox: [10, 40, 11, 41], bbox_crs: 'EPSG:4326' }, out('far.tif')), (err: Error) =>
      /does not overlap the raster, whose extent is \[5\.741667, 49\.441667, 6\.533333, 50\.191667\]/.test(err.message),
    );
  });

  test('clip by a mask polygon: gdalwarp -cutline -crop_to_cutline’s pixels; the mask may be in another CRS', async () => {
    const canton = out('canton.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', canton, LUX, '-nln', 'canton', '-where', "NAME_2 = 'Luxembourg'"]);
    const ours = out('clip_mask.tif');
    const result = await run('clip_raster', { input: ELEV, mask: `${canton}|layername=canton` }, ours);
    assert.match(result.notes[0]!, /outside the mask are nodata \(-32768\)/);
    const cli = out('clip_mask_cli.tif');
    gdalCli('gdalwarp', ['-q', '-cutline', canton, '-cl', 'canton', '-crop_to_cutline', '-dstnodata', '-32768', ELEV, cli]);
    assert.deepEqual(gdalInfo(ours).size, gdalInfo(cli).size);
    assert.deepEqual(gdalInfo(ours).geoTransform, gdalInfo(cli).geoTransform);
    assert.equal(checksum(ours), checksum(cli));
    // The crop stays on the DEM's pixel grid: a whole number of pixels from its origin.
    const [ox, , , oy] = gdalInfo(ours).geoTransform;
    const gt = gdalInfo(ELEV).geoTransform;
    assert.ok(
      Math.abs(((ox! - gt[0]!) / gt[1]!) % 1) < 1e-6 && Math.abs(((oy! - gt[3]!) / gt[5]!) % 1) < 1e-6,
      'aligned on the source grid',
    );

    // The same canton in LUREF (EPSG:2169): GDAL brings the cutline onto the raster itself.
    const luref = out('canton_2169.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', '-t_srs', 'EPSG:2169', luref, canton, '-nln', 'canton']);
    const viaLuref = out('clip_mask_2169.tif');
    await run('clip_raster', { input: ELEV, mask: `${luref}|layername=canton` }, viaLuref);
    const a = bandStats(ours);
    const b = bandStats(viaLuref);
    assert.equal(a.min, b.min);
    assert.equal(a.max, b.max);
    assert.ok(Math.abs(a.mean - b.mean) < 0.5, `${a.mean} vs ${b.mean}`);

    const touched = out('clip_mask_touched.tif');
    await run('clip_raster', { input: ELEV, mask: `${canton}|layername=canton`, all_touched: true }, touched);
    const valid = (f: string) => {
      const s = bandStats(f);
      const [w, h] = gdalInfo(f).size;
      return (s.validPercent / 100) * w * h;
    };
    assert.ok(valid(touched) > valid(ours), 'all_touched keeps the pixels on the boundary too');
  });

  /** The four corners of a UTM 32N box in lon/lat, by gdaltransform (lon/lat order, as it prints). */
  function utmCornersInLonLat(box: number[]): [number, number][] {
    const [x0, y0, x1, y1] = box as [number, number, number, number];
    const input = [
      [x0, y0],
      [x0, y1],
      [x1, y0],
      [x1, y1],
    ]
      .map(([x, y]) => `${x} ${y}`)
      .join('\n');
    const text = execFileSync('gdaltransform', ['-s_srs', 'EPSG:32632', '-t_srs', 'EPSG:4326'], { input, encoding: 'utf8' });
    return text
      .trim()
      .split('\n')
      .map((line) => {
        const [lon, lat] = line.trim().split(/\s+/).map(Number);
        return [lon!, lat!] as [number, number];
      });
  }
});
