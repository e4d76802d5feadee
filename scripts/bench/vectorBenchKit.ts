/**
 * Shared by the vector benches (buffer.ts, clip.ts): the ~100k real polygons they run on, QGIS's
 * `qgis_process` when it is installed, and the best-of timing and reporting (benchKit.ts has
 * the rest).
 *
 * The polygons are real boundaries cut into pieces, built in a temp folder (nothing is
 * committed): the 100 North Carolina counties of the fixtures (nc.gpkg, NAD27) are projected to
 * UTM 17N and cut by a square grid sized so that about --features pieces come out — every grid
 * cell inside a county is one square piece, every cell a county border crosses gives a piece per
 * county with the real border in it.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ENV, gdal, requireFixture, seconds, timeIt } from './benchKit.js';

/** Debian's `qgis_process` wrapper passes an option this build refuses: the binary is called directly. */
const QGIS = 'qgis_process.bin';
const QGIS_ENV = { ...ENV, QT_QPA_PLATFORM: 'offscreen' };

/** One number from an ogrinfo SQL query. */
export function sqlNumber(file: string, sql: string): number {
  const out = gdal('ogrinfo', ['-ro', '-q', '-geom=NO', '-sql', sql, file]);
  const m = /=\s*(-?[\d.eE+-]+)\s*$/m.exec(out);
  if (!m) throw new Error(`no number from ${sql}: ${out}`);
  return Number(m[1]);
}

/** The name of the only (first) layer of a file. */
export function firstLayer(file: string): string {
  const m = /^1: (.+?) \(/m.exec(gdal('ogrinfo', ['-ro', '-q', file]));
  if (!m) throw new Error(`no layer in ${file}`);
  return m[1]!;
}

/** Feature count and total area of an output, to check that every tool did the same work. */
export function outputSummary(file: string): { count: number; area: number; text: string } {
  const layer = firstLayer(file);
  const count = sqlNumber(file, `SELECT COUNT(*) FROM "${layer}"`);
  const area = sqlNumber(file, `SELECT SUM(ST_Area(geom)) FROM "${layer}"`);
  return { count, area, text: `${count.toLocaleString('en-US')} features, ${(area / 1e6).toFixed(1)} km²` };
}

/** Real county boundaries in UTM 17N cut by a grid into about `target` pieces: `<dir>/pieces.gpkg`, layer `pieces`. */
export function buildPieces(dir: string, target: number): string {
  const source = requireFixture('nc.gpkg');
  const work = path.join(dir, 'work.gpkg');
  gdal('ogr2ogr', ['-f', 'GPKG', work, source, '-t_srs', 'EPSG:32617', '-nln', 'nc', '-lco', 'GEOMETRY_NAME=geom']);
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
  gdal('ogr2ogr', [
    '-update',
    work,
    csv,
    '-nln',
    'grid',
    '-a_srs',
    'EPSG:32617',
    '-oo',
    'GEOM_POSSIBLE_NAMES=wkt',
    '-oo',
    'KEEP_GEOM_COLUMNS=NO',
    '-lco',
    'GEOMETRY_NAME=geom',
  ]);
  const pieces = path.join(dir, 'pieces.gpkg');
  const sql =
    'SELECT CollectionExtract(ST_Intersection(c.geom, g.geom), 3) AS geom, c.NAME, c.FIPS, c.BIR74 FROM grid g JOIN nc c ' +
    'ON c.fid IN (SELECT id FROM rtree_nc_geom r WHERE r.minx <= ST_MaxX(g.geom) AND r.maxx >= ST_MinX(g.geom) AND r.miny <= ST_MaxY(g.geom) AND r.maxy >= ST_MinY(g.geom)) ' +
    'AND ST_Intersects(c.geom, g.geom)';
  gdal('ogr2ogr', [
    '-f',
    'GPKG',
    pieces,
    work,
    '-nln',
    'pieces',
    '-nlt',
    'MULTIPOLYGON',
    '-a_srs',
    'EPSG:32617',
    '-sql',
    `SELECT * FROM (${sql}) WHERE geom IS NOT NULL`,
  ]);
  console.log(`Grid: ${lines.length - 1} cells of ${cell.toFixed(0)} m over the counties' extent`);
  return pieces;
}

export function describePieces(pieces: string, builtMs: number): number {
  const count = sqlNumber(pieces, 'SELECT COUNT(*) FROM pieces');
  const vertices = sqlNumber(pieces, 'SELECT SUM(ST_NPoints(geom)) FROM pieces');
  console.log(
    `Input: ${count.toLocaleString('en-US')} polygons (${vertices.toLocaleString('en-US')} vertices) from nc.gpkg's 100 counties in UTM 17N ` +
      `(built in ${seconds(builtMs)}, excluded from the timings)`,
  );
  return count;
}

/** buildPieces, timed and described: the pieces' file and how many polygons it holds. */
export async function preparePieces(dir: string, target: number): Promise<{ pieces: string; count: number }> {
  let pieces = '';
  const builtMs = await timeIt(() => {
    pieces = buildPieces(dir, target);
  });
  return { pieces, count: describePieces(pieces, builtMs) };
}

/** The ogr2ogr side of a bench: `input` (a file, then its layer if named) to a GeoPackage layer `name` of multipolygons. */
export function ogrPolygons(out: string, input: readonly string[], name: string, options: readonly string[]): string {
  return gdal('ogr2ogr', ['-f', 'GPKG', out, ...input, '-nln', name, '-nlt', 'MULTIPOLYGON', ...options]);
}

/** QGIS's command-line processing, when installed (only the benches use it). */
export interface Qgis {
  version: string;
  /** `qgis_process.bin --version`: the program alone. */
  bareStartMs: number;
  /** The same algorithm on a one-feature layer: start-up with the processing providers loaded. */
  startMs: number;
  run(algorithm: string, params: Record<string, string | number>): void;
}

function qgisRun(algorithm: string, params: Record<string, string | number>): void {
  const args = ['run', algorithm, ...Object.entries(params).map(([k, v]) => `--${k}=${v}`)];
  execFileSync(QGIS, args, { encoding: 'utf8', env: QGIS_ENV, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

/**
 * Finds qgis_process and measures its start-up: `--version`, then `trivial()` (the benched
 * algorithm on one feature), best of three, so that the big run can be read with and without it.
 */
export function findQgis(trivial: (run: Qgis['run']) => void): Qgis | null {
  let version: string;
  try {
    version = execFileSync(QGIS, ['--version'], { encoding: 'utf8', env: QGIS_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch {
    console.log(`(${QGIS} not found: no QGIS baseline. apt-get install -y --no-install-recommends qgis qgis-providers python3-qgis)`);
    return null;
  }
  let bareStartMs = Infinity;
  let startMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    execFileSync(QGIS, ['--version'], { env: QGIS_ENV, stdio: 'ignore' });
    bareStartMs = Math.min(bareStartMs, performance.now() - t0);
    const t1 = performance.now();
    trivial(qgisRun);
    startMs = Math.min(startMs, performance.now() - t1);
  }
  const line = /QGIS version: (.+)/.exec(version)?.[1] ?? version.split('\n')[0]!;
  return { version: line.trim(), bareStartMs, startMs, run: qgisRun };
}

/** A one-feature copy of `file`'s layer, for timing a tool's start-up. */
export function oneFeature(file: string, layer: string, out: string): string {
  gdal('ogr2ogr', ['-f', 'GPKG', out, file, layer, '-limit', '1', '-nln', 'one']);
  return out;
}

export interface Timings {
  ours: number;
  ogr: number;
  qgis: number | null;
}

/**
 * Runs the three sides `runs` times, in a rotating order so none always gets the warmest file
 * cache, and keeps the best time of each.
 */
export async function bestOf(
  runs: number,
  sides: { ours: (run: number) => Promise<unknown>; ogr: (run: number) => unknown; qgis: ((run: number) => unknown) | null },
): Promise<Timings> {
  const best: Timings = { ours: Infinity, ogr: Infinity, qgis: sides.qgis ? Infinity : null };
  const order: (keyof Timings)[] = sides.qgis ? ['ours', 'ogr', 'qgis'] : ['ours', 'ogr'];
  for (let run = 1; run <= runs; run++) {
    const line: string[] = [];
    for (let i = 0; i < order.length; i++) {
      const side = order[(i + run - 1) % order.length]!;
      const fn = side === 'ours' ? sides.ours : side === 'ogr' ? sides.ogr : sides.qgis!;
      const ms = await timeIt(() => fn(run));
      best[side] = Math.min(best[side] ?? Infinity, ms);
      line.push(`${side === 'ours' ? 'worker' : side === 'ogr' ? 'ogr2ogr' : 'qgis'} ${seconds(ms)}`);
    }
    console.log(`run ${run}: ${line.join(', ')}`);
  }
  return best;
}

/**
 * What each side wrote (`output(side)`: its file of the last run), then the results table: times,
 * and ratios worker / ogr2ogr and worker / qgis (with and without its start-up).
 */
export function report(
  title: string,
  labels: { ours: string; ogr: string; qgis: string },
  t: Timings,
  qgis: Qgis | null,
  output: (side: 'ours' | 'ogr2ogr' | 'qgis') => string,
): void {
  const outputs = [`worker ${outputSummary(output('ours')).text}`, `ogr2ogr ${outputSummary(output('ogr2ogr')).text}`];
  if (qgis) outputs.push(`qgis ${outputSummary(output('qgis')).text}`);
  console.log(`\nOutputs: ${outputs.join('; ')}`);
  console.log(`\n| ${title} | time | worker ÷ this |\n|---|---|---|`);
  console.log(`| Mapwright worker (${labels.ours}) | ${seconds(t.ours)} | 1.00 |`);
  console.log(`| ${labels.ogr} | ${seconds(t.ogr)} | ${(t.ours / t.ogr).toFixed(2)} |`);
  if (qgis && t.qgis !== null) {
    const net = Math.max(1, t.qgis - qgis.startMs);
    console.log(`| ${labels.qgis} | ${seconds(t.qgis)} | ${(t.ours / t.qgis).toFixed(2)} |`);
    console.log(`| ${labels.qgis}, minus its start-up (${seconds(qgis.startMs)}) | ${seconds(net)} | ${(t.ours / net).toFixed(2)} |`);
  }
  console.log(`\nRatio worker / ogr2ogr: ${(t.ours / t.ogr).toFixed(2)}×`);
  if (qgis && t.qgis !== null) {
    console.log(
      `Ratio worker / qgis_process: ${(t.ours / t.qgis).toFixed(2)}× (${(t.ours / Math.max(1, t.qgis - qgis.startMs)).toFixed(2)}× without its start-up)`,
    );
    console.log(
      `qgis_process start-up: ${seconds(qgis.bareStartMs)} for --version, ${seconds(qgis.startMs)} for a run on one feature (${qgis.version})`,
    );
  }
}
