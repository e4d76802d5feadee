/**
 * Hillshade of a large DEM: Mapwright's worker algorithm against the `gdaldem hillshade` command
 * line, in the same run, on the same files, with the same output options (tiled DEFLATE GeoTIFF).
 *
 *   npx tsx scripts/bench/hillshade.ts [--runs 2] [--res 10] [--keep]
 *
 * The large DEMs are built from real data into a temp folder (nothing is committed): the SRTM-
 * derived Luxembourg DEM of the fixtures (elev.tif, 95 × 90 pixels of 30″) is upsampled with a
 * cubic spline, once projected to UTM 32N at --res metres (a projected DEM: both sides run GDAL's
 * gdaldem code, ours through gdal-async in the worker process) and once kept in EPSG:4326 at a
 * pixel of about the same size (a geographic DEM: ours goes per latitude in strips, gdaldem uses
 * its one-scale convention -s 111120, which is faster and wrong east–west by cos(latitude)).
 * Times are wall-clock, best of --runs, worker start-up excluded (it is started and warmed first).
 */
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { gdal, option, requireFixture, runWorkerBench, seconds, timeIt } from './benchKit.js';

const CO = ['-co', 'TILED=YES', '-co', 'COMPRESS=DEFLATE', '-co', 'BIGTIFF=IF_SAFER'];
const RUNS = option('runs', 2);
const RES = option('res', 10);

function info(file: string): { size: [number, number]; checksum?: number } {
  const json = JSON.parse(gdal('gdalinfo', ['-json', '-checksum', file])) as { size: [number, number]; bands: { checksum?: number }[] };
  return { size: json.size, checksum: json.bands[0]?.checksum };
}

runWorkerBench('hillshade', async (dir, client) => {
  const source = requireFixture('elev.tif');
  const projected = path.join(dir, 'dem_utm.tif');
  const geographic = path.join(dir, 'dem_4326.tif');
  // About RES metres each way at Luxembourg's 49.8° N.
  const degX = RES / (111_320 * Math.cos((49.8 * Math.PI) / 180));
  const degY = RES / 111_200;
  const prep = await timeIt(() => {
    gdal('gdalwarp', [
      '-q',
      '-t_srs',
      'EPSG:32632',
      '-tr',
      String(RES),
      String(RES),
      '-r',
      'cubicspline',
      '-ot',
      'Float32',
      ...CO,
      source,
      projected,
    ]);
    gdal('gdalwarp', ['-q', '-tr', String(degX), String(degY), '-r', 'cubicspline', '-ot', 'Float32', ...CO, source, geographic]);
  });
  for (const f of [projected, geographic]) {
    const { size } = info(f);
    console.log(
      `DEM ${path.basename(f)}: ${size[0]} × ${size[1]} = ${((size[0] * size[1]) / 1e6).toFixed(1)} Mpixels, ${(statSync(f).size / 1e6).toFixed(0)} MB`,
    );
  }
  console.log(`(built in ${seconds(prep)} by gdalwarp -r cubicspline from elev.tif, excluded from the timings)`);

  // Start the worker and let it open GDAL before any timing.
  await client.call('layers.describe', { source: projected });

  const cases = [
    { name: 'projected (UTM 32N)', dem: projected, cliArgs: [] as string[] },
    { name: 'geographic (EPSG:4326)', dem: geographic, cliArgs: ['-s', '111120'] },
  ];
  const rows: string[] = [];
  for (const c of cases) {
    const ours = path.join(dir, `ours_${path.basename(c.dem)}`);
    const theirs = path.join(dir, `cli_${path.basename(c.dem)}`);
    const best = { ours: Infinity, cli: Infinity };
    for (let run = 0; run < RUNS; run++) {
      rmSync(ours, { force: true });
      rmSync(theirs, { force: true });
      // Alternate the order so neither side always gets the warmer file cache.
      const doOurs = () => client.call('processing.run', { algorithm: 'hillshade', params: { input: c.dem }, output: ours });
      const doCli = () => gdal('gdaldem', ['hillshade', '-q', '-compute_edges', ...c.cliArgs, ...CO, c.dem, theirs]);
      if (run % 2 === 0) {
        best.ours = Math.min(best.ours, await timeIt(doOurs));
        best.cli = Math.min(best.cli, await timeIt(doCli));
      } else {
        best.cli = Math.min(best.cli, await timeIt(doCli));
        best.ours = Math.min(best.ours, await timeIt(doOurs));
      }
    }
    const a = info(ours);
    const b = info(theirs);
    const same = a.checksum === b.checksum ? 'identical pixels' : 'pixels differ (expected: per-latitude scale vs -s 111120)';
    const ratio = best.ours / best.cli;
    rows.push(
      `${c.name.padEnd(24)} ${seconds(best.ours).padStart(9)} ${seconds(best.cli).padStart(9)} ${ratio.toFixed(2).padStart(6)}   ${same}`,
    );
  }
  console.log(`\nhillshade, best of ${RUNS} run(s); ratio = Mapwright worker / gdaldem CLI`);
  console.log(`${'DEM'.padEnd(24)} ${'worker'.padStart(9)} ${'gdaldem'.padStart(9)} ${'ratio'.padStart(6)}`);
  for (const r of rows) console.log(r);
});
