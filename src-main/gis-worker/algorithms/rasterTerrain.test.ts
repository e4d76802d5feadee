/**
 * Hillshade, slope and aspect in the real worker on real DEMs, read back and judged with GDAL's
 * command-line tools: gdaldem itself for a projected DEM (the same numbers, pixel for pixel), and
 * for geographic DEMs a gdaldem reference built by hand at each test point — a 5×5 window whose
 * pixel size is set in metres for that point's latitude from the standard series for the length
 * of a degree (not the ellipsoid formula the worker uses).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { assertClose, e2eFixture, fixture, gdalCli, skipReason } from '../testSupport.js';
import { algorithmSuite } from './algorithmTestKit.js';
import { bandStats, gdalInfo, isTiledCompressedGeoTiff, pixel, pixels } from './rasterTestSupport.js';

const OLINDA = e2eFixture('olinda_dem_utm25s.tif'); // UTM 25S, metres, Float32
const ELEV = fixture('elev.tif'); // Luxembourg, EPSG:4326, Int16
const SRTM = `/vsizip/${fixture('N10W110.hgt.zip')}/N10W110.hgt`; // Clipperton Island, EPSG:4326

/** Length of a degree of longitude and latitude in metres (the usual series, WGS 84). */
function degreeLength(latDeg: number): { x: number; y: number } {
  const p = (latDeg * Math.PI) / 180;
  return {
    x: 111412.84 * Math.cos(p) - 93.5 * Math.cos(3 * p) + 0.118 * Math.cos(5 * p),
    y: 111132.92 - 559.82 * Math.cos(2 * p) + 1.175 * Math.cos(4 * p) - 0.0023 * Math.cos(6 * p),
  };
}

describe('terrain algorithms (gdaldem) in the worker', { skip: skipReason }, () => {
  const { out, run, worker } = algorithmSuite();

  /**
   * gdaldem at pixel (col, row) of a geographic DEM, on a 5×5 window whose pixel size is in
   * metres for that latitude; the window's centre value, read from gdaldem's ASCII grid output.
   */
  function geographicReference(dem: string, mode: string, col: number, row: number): number {
    const gt = gdalInfo(dem).geoTransform;
    const m = degreeLength(gt[3]! + gt[5]! * (row + 0.5));
    const ew = gt[1]! * m.x;
    const ns = Math.abs(gt[5]!) * m.y;
    const win = out(`win_${col}_${row}.tif`);
    if (!existsSync(win)) {
      gdalCli('gdal_translate', [
        '-q',
        '-srcwin',
        String(col - 2),
        String(row - 2),
        '5',
        '5',
        '-a_ullr',
        '0',
        '0',
        String(5 * ew),
        String(-5 * ns),
        dem,
        win,
      ]);
    }
    const grid = gdalCli('gdaldem', [
      mode,
      '-q',
      win,
      '/vsistdout/',
      '-s',
      '1',
      '-of',
      'AAIGrid',
      '-co',
      'DECIMAL_PRECISION=6',
      '-co',
      'FORCE_CELLSIZE=TRUE',
    ]);
    const rows = grid.split('\n').filter((line) => /^\s*-?[\d.]+(\s+-?[\d.]+){4}\s*$/.test(line));
    return Number(rows[2]!.trim().split(/\s+/)[2]);
  }

  test('projected DEM: hillshade, slope and aspect equal gdaldem’s, pixel for pixel', async () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['hillshade', {}, ['hillshade', '-compute_edges']],
      ['hillshade', { azimuth: 90, altitude: 30, z_factor: 3 }, ['hillshade', '-compute_edges', '-az', '90', '-alt', '30', '-z', '3']],
      ['hillshade', { mode: 'multidirectional' }, ['hillshade', '-compute_edges', '-multidirectional']],
      ['slope', {}, ['slope', '-compute_edges']],
      ['slope', { units: 'percent', z_factor: 2 }, ['slope', '-compute_edges', '-p', '-s', '0.5']],
      ['aspect', { compute_edges: false }, ['aspect']],
    ];
    for (const [i, [algorithm, params, cli]] of cases.entries()) {
      const ours = out(`olinda_${i}.tif`);
      const progress: number[] = [];
      await run(algorithm, { input: OLINDA, ...params }, ours, { onProgress: (f) => progress.push(f) });
      const theirs = out(`olinda_${i}_cli.tif`);
      gdalCli('gdaldem', [cli[0]!, '-q', OLINDA, theirs, ...cli.slice(1)]);
      const a = gdalInfo(ours, { checksum: true, stats: true });
      const b = gdalInfo(theirs, { checksum: true, stats: true });
      assert.deepEqual(a.size, [111, 111]);
      const [ba, bb] = [a.bands[0]!, b.bands[0]!];
      assert.equal(ba.type, bb.type, `${algorithm} ${i}: pixel type`);
      assert.equal(ba.noDataValue, bb.noDataValue, `${algorithm} ${i}: nodata`);
      assert.equal(ba.checksum, bb.checksum, `${algorithm} ${i}: checksum`);
      for (const k of ['STATISTICS_MEAN', 'STATISTICS_MINIMUM', 'STATISTICS_MAXIMUM', 'STATISTICS_VALID_PERCENT']) {
        assert.equal(ba.metadata?.['']?.[k], bb.metadata?.['']?.[k], `${algorithm} ${i}: ${k}`);
      }
      const points = [
        [10, 10],
        [55, 60],
        [100, 30],
      ] as const;
      assert.deepEqual(pixels(ours, points), pixels(theirs, points), `${algorithm} ${i}: values at points`);
      assert.match(a.coordinateSystem!.wkt, /UTM Zone 25, Southern Hemisphere/);
      assert.ok(progress.length > 0, 'progress reported');
      if (i === 0) assert.ok(isTiledCompressedGeoTiff(ours), 'tiled, DEFLATE-compressed GeoTIFF');
    }
  });

  // elev.tif goes in strips of 16 rows: rows 15/16, 31/32 and 47/48 sit on either side of a seam.
  const POINTS: [number, number][] = [
    [30, 15],
    [30, 16],
    [50, 31],
    [50, 32],
    [45, 47],
    [45, 48],
    [50, 40],
    [70, 60],
    [40, 70],
    [20, 55],
  ];

  test('geographic DEM: values match gdaldem on a metre grid at each point’s latitude', async () => {
    const hs = out('elev_hs.tif');
    const sl = out('elev_slope.tif');
    const as = out('elev_aspect.tif');
    const result = await run('hillshade', { input: ELEV }, hs);
    assert.match(result.notes.join(' '), /per latitude/);
    await run('slope', { input: ELEV }, sl);
    await run('aspect', { input: ELEV }, as);
    assert.ok(!pixels(ELEV, POINTS).includes(-32768), 'every test point has an elevation');
    const [hsv, slv, asv] = [pixels(hs, POINTS), pixels(sl, POINTS), pixels(as, POINTS)];
    for (const [i, [c, r]] of POINTS.entries()) {
      const h = hsv[i]!;
      assert.ok(Math.abs(h - geographicReference(ELEV, 'hillshade', c, r)) <= 1, `hillshade at ${c},${r}: ${h}`);
      const s = slv[i]!;
      const sRef = geographicReference(ELEV, 'slope', c, r);
      assertClose(s, sRef, 0.004 * sRef + 0.005, `slope at ${c},${r}`);
      const a = asv[i]!;
      const aRef = geographicReference(ELEV, 'aspect', c, r);
      const turn = Math.abs(((a - aRef + 540) % 360) - 180);
      assert.ok(turn <= 0.5, `aspect at ${c},${r}: ${a} vs ${aRef}`);
    }
    // gdaldem's one-scale convention for degrees (-s 111120) undercounts east–west gradients by
    // cos(50°): its slopes are clearly lower than the per-latitude ones.
    const conv = out('elev_slope_111120.tif');
    gdalCli('gdaldem', ['slope', '-q', '-compute_edges', '-s', '111120', ELEV, conv]);
    assert.ok(bandStats(sl).mean > 1.1 * bandStats(conv).mean, 'per-latitude slopes are steeper than the -s 111120 ones');
    assert.deepEqual(gdalInfo(hs).geoTransform, gdalInfo(ELEV).geoTransform, 'same grid as the DEM');
    assert.equal(gdalInfo(hs).bands[0]!.noDataValue, 0);
    assert.equal(gdalInfo(sl).bands[0]!.noDataValue, -9999);
    assert.ok(isTiledCompressedGeoTiff(sl));
  });

  test('geographic DEM: strip seams are invisible (a strip-free run on the same grid agrees everywhere)', async () => {
    // elev.tif is 90 rows: several strips. Whole-raster gdaldem with the scale of the middle
    // latitude differs from ours only by the latitude factor, smoothly — no jump at a strip edge.
    const ours = out('elev_seam_slope.tif');
    await run('slope', { input: ELEV, compute_edges: false }, ours);
    const gt = gdalInfo(ELEV).geoTransform;
    const mid = degreeLength(gt[3]! + gt[5]! * 45);
    const whole = out('elev_seam_ref.tif');
    const scaled = out('elev_seam_src.tif');
    gdalCli('gdal_translate', [
      '-q',
      '-a_ullr',
      '0',
      '0',
      String(95 * gt[1]! * mid.x),
      String(-90 * Math.abs(gt[5]!) * mid.y),
      ELEV,
      scaled,
    ]);
    gdalCli('gdaldem', ['slope', '-q', scaled, whole, '-s', '1']);
    const column: [number, number][] = Array.from({ length: 88 }, (_, i) => [47, i + 1]);
    const mine = pixels(ours, column);
    const refs = pixels(whole, column);
    for (let r = 1; r < 89; r++) {
      const s = mine[r - 1]!;
      const ref = refs[r - 1]!;
      if (ref === -9999) continue; // next to the DEM's own nodata
      // Within 0.8° of latitude of the middle, the scale differs by under 2 %.
      assertClose(s, ref, 0.02 * ref + 0.01, `slope at row ${r}`);
    }
  });

  test('SRTM tile read through /vsizip/: flat sea as gdaldem shades it, the island per latitude', async () => {
    const hs = out('srtm_hs.tif');
    await run('hillshade', { input: SRTM }, hs);
    assert.deepEqual(gdalInfo(hs).size, [1201, 1201]);
    const cli = out('srtm_hs_cli.tif');
    gdalCli('gdaldem', ['hillshade', '-q', '-compute_edges', '-s', '111120', SRTM, cli]);
    // Open sea is flat (0 m): the scale does not matter there.
    const [sea] = pixels(hs, [[100, 100]]);
    assert.deepEqual(pixels(cli, [[100, 100]]), [sea]);
    assert.equal(sea, 181, 'flat ground lit from 45° gives 1 + 254 × sin 45° ≈ 181');
    // Clipperton Island's highest ground, 7 m at column 939, row 822.
    assert.equal(pixel(SRTM, 939, 822), 7);
    const island = [
      [939, 822],
      [937, 820],
      [941, 824],
    ] as const;
    for (const [i, v] of pixels(hs, island).entries()) {
      const [c, r] = island[i]!;
      assert.ok(Math.abs(v - geographicReference(SRTM, 'hillshade', c, r)) <= 1, `island at ${c},${r}: ${v}`);
    }
  });

  test('Stop between strips: the worker answers the cancel itself (it is not killed) and goes on serving', async () => {
    // The Luxembourg DEM at 0.0002° (3,960 × 3,750 pixels): seconds of work in many strips of rows.
    const big = out('elev_big.tif');
    gdalCli('gdalwarp', ['-q', '-ot', 'Float32', '-tr', '0.0002', '0.0002', '-r', 'bilinear', ELEV, big]);
    await run('slope', { input: ELEV }, out('warm.tif'));
    const pid = worker().workerPid;
    const stop = new AbortController();
    const stopped = out('stopped.tif');
    const job = worker().call(
      'processing.run',
      { algorithm: 'hillshade', params: { input: big }, output: stopped },
      { signal: stop.signal, onProgress: () => stop.abort(new Error('stopped by the person')) },
    );
    await assert.rejects(job, /stopped by the person/);
    // The client kills a worker that has not answered a cancel within a second.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(worker().workerPid, pid, 'the same worker process: it stopped at a checkpoint');
    // Near Luxembourg City (row 3,000 of 3,750), a strip long after the stop: never computed.
    // (Main deletes such a partial output; the bare client here leaves it to be read.)
    assert.notEqual(pixels(big, [[2000, 3000]])[0], -32768, 'the DEM has ground there');
    assert.equal(pixels(stopped, [[2000, 3000]])[0], 0, 'the strips after the stop were not shaded');
    await run('aspect', { input: ELEV }, out('after.tif'));
    assert.equal(worker().workerPid, pid);
  });

  test('a raster without bands to shade is refused with a readable message', async () => {
    await assert.rejects(run('slope', { input: ELEV, band: 2 }, out('bad.tif')), (err: Error) =>
      /has 1 band\(s\); there is no band 2/.test(err.message),
    );
    await assert.rejects(run('hillshade', { input: fixture('nc.gpkg') }, out('bad2.tif')), (err: Error) =>
      /must be a raster/.test(err.message),
    );
  });
});
