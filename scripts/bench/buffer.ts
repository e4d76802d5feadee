/**
 * Buffer of ~100k polygons: Mapwright's worker algorithm (`buffer`, run through the real worker
 * process as the app runs it) against `ogr2ogr -dialect SQLite -sql "SELECT ST_Buffer(…)"`, in
 * the same run, on the same file, same distance and the same 8 segments per quarter circle.
 *
 *   npx tsx scripts/bench/buffer.ts [--features 100000] [--distance 100] [--runs 1] [--keep]
 *
 * The polygons are real boundaries cut into pieces, built in a temp folder (nothing is
 * committed): the 100 North Carolina counties of the fixtures (nc.gpkg, NAD27) are projected
 * to UTM 17N and cut by a square grid sized so that about --features pieces come out — every
 * grid cell inside a county is one square piece, every cell a county border crosses gives a
 * piece per county with the real border in it. Times are wall-clock, best of --runs; the
 * worker is started and warmed before timing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkLauncher } from '../../src-main/worker-host/forkLauncher.js';
import { GisWorkerClient } from '../../src-main/worker-host/GisWorkerClient.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = path.join(ROOT, 'src-main', 'gis-worker', 'workerMain.ts');
const SOURCE = path.resolve(ROOT, '..', 'shared', 'fixtures', 'gis', 'nc.gpkg');
const ENV = { ...process.env, GDAL_PAM_ENABLED: 'NO' };

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const FEATURES = option('features', 100_000);
const DISTANCE = option('distance', 100);
const RUNS = option('runs', 1);
const KEEP = process.argv.includes('--keep');
const SEGMENTS = 8;

function gdal(tool: string, args: string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8', env: ENV, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

/** One number from an ogrinfo SQL query. */
function sqlNumber(file: string, sql: string): number {
  const out = gdal('ogrinfo', ['-ro', '-q', '-geom=NO', '-sql', sql, file]);
  const m = /=\s*(-?[\d.eE+-]+)\s*$/m.exec(out);
  if (!m) throw new Error(`no number from ${sql}: ${out}`);
  return Number(m[1]);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

async function timeIt(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Real county boundaries in UTM 17N cut by a grid into about `target` pieces. */
function buildPieces(dir: string, target: number): string {
  const work = path.join(dir, 'work.gpkg');
  gdal('ogr2ogr', ['-f', 'GPKG', work, SOURCE, '-t_srs', 'EPSG:32617', '-nln', 'nc', '-lco', 'GEOMETRY_NAME=geom']);
  const area = sqlNumber(work, 'SELECT SUM(ST_Area(geom)) FROM nc');
  const [minX, minY, maxX, maxY] = ['ST_MinX', 'ST_MinY', 'ST_MaxX', 'ST_MaxY'].map((f, i) =>
    sqlNumber(work, `SELECT ${i < 2 ? 'MIN' : 'MAX'}(${f}(geom)) FROM nc`),
  ) as [number, number, number, number];
  // Border cells split in two or more: aim the whole-cell count a little under the target.
  const cell = Math.sqrt(area / (target * 0.93));
  // Two columns: GDAL's CSV driver does not take a one-column file for a CSV.
  const lines = ['cell,wkt'];
  for (let x = minX; x < maxX; x += cell) {
    for (let y = minY; y < maxY; y += cell) {
      lines.push(`${lines.length},"POLYGON((${x} ${y},${x + cell} ${y},${x + cell} ${y + cell},${x} ${y + cell},${x} ${y}))"`);
    }
  }
  const csv = path.join(dir, 'grid.csv');
  writeFileSync(csv, lines.join('\n') + '\n');
  gdal('ogr2ogr', ['-update', work, csv, '-nln', 'grid', '-a_srs', 'EPSG:32617', '-oo', 'GEOM_POSSIBLE_NAMES=wkt', '-oo', 'KEEP_GEOM_COLUMNS=NO', '-lco', 'GEOMETRY_NAME=geom']);
  const pieces = path.join(dir, 'pieces.gpkg');
  const sql =
    'SELECT CollectionExtract(ST_Intersection(c.geom, g.geom), 3) AS geom, c.NAME, c.FIPS, c.BIR74 FROM grid g JOIN nc c ' +
    'ON c.fid IN (SELECT id FROM rtree_nc_geom r WHERE r.minx <= ST_MaxX(g.geom) AND r.maxx >= ST_MinX(g.geom) AND r.miny <= ST_MaxY(g.geom) AND r.maxy >= ST_MinY(g.geom)) ' +
    'AND ST_Intersects(c.geom, g.geom)';
  gdal('ogr2ogr', ['-f', 'GPKG', pieces, work, '-nln', 'pieces', '-nlt', 'MULTIPOLYGON', '-a_srs', 'EPSG:32617', '-sql', `SELECT * FROM (${sql}) WHERE geom IS NOT NULL`]);
  console.log(`Grid: ${lines.length - 1} cells of ${cell.toFixed(0)} m over the counties' extent`);
  return pieces;
}

async function main(): Promise<void> {
  if (!existsSync(SOURCE)) throw new Error(`The real counties are missing: ${SOURCE} (the shared fixtures)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'mapwright-bench-buffer-'));
  const client = new GisWorkerClient(forkLauncher(ENTRY, ['--import', 'tsx']));
  try {
    console.log(`GDAL: ${gdal('ogrinfo', ['--version']).trim()}; Node ${process.version}; temp folder ${dir}`);
    let pieces = '';
    const prep = await timeIt(() => {
      pieces = buildPieces(dir, FEATURES);
    });
    const count = sqlNumber(pieces, 'SELECT COUNT(*) FROM pieces');
    const vertices = sqlNumber(pieces, 'SELECT SUM(ST_NPoints(geom)) FROM pieces');
    console.log(
      `Input: ${count.toLocaleString('en-US')} polygons (${vertices.toLocaleString('en-US')} vertices) from nc.gpkg's 100 counties in UTM 17N, ` +
        `${(statSync(pieces).size / 1e6).toFixed(1)} MB (built in ${seconds(prep)}, excluded from the timings)`,
    );
    console.log(`Buffer: ${DISTANCE} m, ${SEGMENTS} segments per quarter circle, one output feature per input feature, GeoPackage out\n`);

    // Start the worker and let it load GDAL before any timing.
    await client.request({ op: 'describe', source: pieces });

    let ours = Infinity;
    let cli = Infinity;
    let oursOut = '';
    let cliOut = '';
    for (let run = 1; run <= RUNS; run++) {
      oursOut = path.join(dir, `ours_${run}.gpkg`);
      cliOut = path.join(dir, `ogr2ogr_${run}.gpkg`);
      const t1 = await timeIt(() =>
        client.request({
          op: 'runAlgorithm',
          algorithm: 'buffer',
          params: { input: `${pieces}|layername=pieces`, distance: DISTANCE, segments: SEGMENTS, dissolve: false },
          output: `${oursOut}|layername=buffered`,
        }),
      );
      const t2 = await timeIt(() =>
        gdal('ogr2ogr', [
          '-f', 'GPKG', cliOut, pieces, '-nln', 'buffered', '-nlt', 'MULTIPOLYGON', '-dialect', 'SQLite',
          '-sql', `SELECT ST_Buffer(geom, ${DISTANCE}, ${SEGMENTS}) AS geom, NAME, FIPS, BIR74 FROM pieces`,
        ]),
      );
      console.log(`run ${run}: worker buffer ${seconds(t1)}, ogr2ogr ST_Buffer ${seconds(t2)}`);
      ours = Math.min(ours, t1);
      cli = Math.min(cli, t2);
    }
    const check = (file: string): string =>
      `${sqlNumber(file, 'SELECT COUNT(*) FROM buffered').toLocaleString('en-US')} features, ${(sqlNumber(file, 'SELECT SUM(ST_Area(geom)) FROM buffered') / 1e6).toFixed(1)} km² in all`;
    console.log(`\nOutputs: worker ${check(oursOut)}; ogr2ogr ${check(cliOut)}`);
    console.log(`\n| buffer of ${count.toLocaleString('en-US')} polygons | time |\n|---|---|`);
    console.log(`| Mapwright worker (\`buffer\` algorithm) | ${seconds(ours)} |`);
    console.log(`| ogr2ogr -dialect SQLite ST_Buffer | ${seconds(cli)} |`);
    console.log(`\nRatio worker / ogr2ogr: ${(ours / cli).toFixed(2)}×`);
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
