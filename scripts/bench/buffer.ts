/**
 * Buffer of ~100k polygons: Mapwright's worker algorithm (`buffer`, run through the real worker
 * process as the app runs it) against `ogr2ogr -dialect SQLite -sql "SELECT ST_Buffer(…)"` and,
 * when QGIS is installed, `qgis_process run native:buffer` — in the same run, on the same file,
 * same distance and the same 8 segments per quarter circle, GeoPackage out.
 *
 *   npx tsx scripts/bench/buffer.ts [--features 100000] [--distance 100] [--runs 1] [--keep]
 *
 * The input is built by vectorBenchKit.ts (real county boundaries cut into pieces). Times are
 * wall-clock, best of --runs; the worker is started and warmed before timing. qgis_process is
 * timed as a person runs it (a fresh process: its start-up is in its time) and its start-up is
 * measured apart, on a one-feature layer, so the table shows it both ways.
 */
import path from 'node:path';
import { option, runWorkerBench } from './benchKit.js';
import { bestOf, findQgis, ogrPolygons, oneFeature, preparePieces, report } from './vectorBenchKit.js';

const FEATURES = option('features', 100_000);
const DISTANCE = option('distance', 100);
const RUNS = option('runs', 1);
const SEGMENTS = 8;

runWorkerBench('buffer', async (dir, client) => {
  const { pieces, count } = await preparePieces(dir, FEATURES);
  console.log(`Buffer: ${DISTANCE} m, ${SEGMENTS} segments per quarter circle, one output feature per input feature, GeoPackage out`);
  const one = oneFeature(pieces, 'pieces', path.join(dir, 'one.gpkg'));
  const qgis = findQgis((run) => run('native:buffer', { INPUT: one, DISTANCE, SEGMENTS, OUTPUT: path.join(dir, 'qgis_one.gpkg') }));
  console.log('');

  // Start the worker and let it load GDAL before any timing.
  await client.call('layers.describe', { source: pieces });

  const out = (side: string, run: number): string => path.join(dir, `${side}_${run}.gpkg`);
  const t = await bestOf(RUNS, {
    ours: (run) =>
      client.call('processing.run', {
        algorithm: 'buffer',
        params: { input: `${pieces}|layername=pieces`, distance: DISTANCE, segments: SEGMENTS, dissolve: false },
        output: `${out('ours', run)}|layername=buffered`,
      }),
    ogr: (run) =>
      ogrPolygons(out('ogr2ogr', run), [pieces], 'buffered', [
        '-dialect',
        'SQLite',
        '-sql',
        `SELECT ST_Buffer(geom, ${DISTANCE}, ${SEGMENTS}) AS geom, NAME, FIPS, BIR74 FROM pieces`,
      ]),
    qgis: qgis ? (run) => qgis.run('native:buffer', { INPUT: pieces, DISTANCE, SEGMENTS, OUTPUT: out('qgis', run) }) : null,
  });
  report(
    `buffer of ${count.toLocaleString('en-US')} polygons`,
    { ours: '`buffer` algorithm', ogr: 'ogr2ogr -dialect SQLite ST_Buffer', qgis: 'qgis_process native:buffer' },
    t,
    qgis,
    (side) => out(side, RUNS),
  );
});
