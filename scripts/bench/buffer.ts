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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bestOf, buildPieces, describePieces, findQgis, flag, gdal, oneFeature, option, outputSummary, report, startWorker, timeIt } from './vectorBenchKit.js';

const FEATURES = option('features', 100_000);
const DISTANCE = option('distance', 100);
const RUNS = option('runs', 1);
const KEEP = flag('keep');
const SEGMENTS = 8;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mapwright-bench-buffer-'));
  const client = startWorker();
  try {
    console.log(`GDAL: ${gdal('ogrinfo', ['--version']).trim()}; Node ${process.version}; temp folder ${dir}`);
    let pieces = '';
    const prep = await timeIt(() => {
      pieces = buildPieces(dir, FEATURES);
    });
    const count = describePieces(pieces, prep);
    console.log(`Buffer: ${DISTANCE} m, ${SEGMENTS} segments per quarter circle, one output feature per input feature, GeoPackage out`);
    const one = oneFeature(pieces, 'pieces', path.join(dir, 'one.gpkg'));
    const qgis = findQgis((run) => run('native:buffer', { INPUT: one, DISTANCE, SEGMENTS, OUTPUT: path.join(dir, 'qgis_one.gpkg') }));
    console.log('');

    // Start the worker and let it load GDAL before any timing.
    await client.request({ op: 'describe', source: pieces });

    const out = (side: string, run: number): string => path.join(dir, `${side}_${run}.gpkg`);
    const t = await bestOf(RUNS, {
      ours: (run) =>
        client.request({
          op: 'runAlgorithm',
          algorithm: 'buffer',
          params: { input: `${pieces}|layername=pieces`, distance: DISTANCE, segments: SEGMENTS, dissolve: false },
          output: `${out('ours', run)}|layername=buffered`,
        }),
      ogr: (run) =>
        gdal('ogr2ogr', [
          '-f', 'GPKG', out('ogr2ogr', run), pieces, '-nln', 'buffered', '-nlt', 'MULTIPOLYGON', '-dialect', 'SQLite',
          '-sql', `SELECT ST_Buffer(geom, ${DISTANCE}, ${SEGMENTS}) AS geom, NAME, FIPS, BIR74 FROM pieces`,
        ]),
      qgis: qgis ? (run) => qgis.run('native:buffer', { INPUT: pieces, DISTANCE, SEGMENTS, OUTPUT: out('qgis', run) }) : null,
    });
    const outputs = [`worker ${outputSummary(out('ours', RUNS)).text}`, `ogr2ogr ${outputSummary(out('ogr2ogr', RUNS)).text}`];
    if (qgis) outputs.push(`qgis ${outputSummary(out('qgis', RUNS)).text}`);
    console.log(`\nOutputs: ${outputs.join('; ')}`);
    report(
      `buffer of ${count.toLocaleString('en-US')} polygons`,
      { ours: '`buffer` algorithm', ogr: 'ogr2ogr -dialect SQLite ST_Buffer', qgis: 'qgis_process native:buffer' },
      t,
      qgis,
    );
  } finally {
    client.dispose();
    if (KEEP) console.log(`Kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
