import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Large generated GIS files for the real-size tests and benchmarks (never committed): points
 * and small square polygons spread over Europe, with a numeric `value`, a category `cat` and
 * an `id`, from a seeded generator so a run can be repeated. Written as CSV by Node, converted
 * by GDAL's `ogr2ogr` (the GeoPackage gets its R-tree as any GDAL-written one does).
 */

export const BIG_EXTENT = { west: -10, south: 35, east: 30, north: 60 } as const;

/** A small, fast, seeded generator (mulberry32): the same seed gives the same data. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function writeCsv(file: string, header: string, rows: number, row: (i: number, rnd: () => number) => string): Promise<void> {
  const out = createWriteStream(file);
  const rnd = seeded(42);
  out.write(`${header}\n`);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    chunk += row(i, rnd);
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

function pointRow(i: number, rnd: () => number): string {
  const lon = BIG_EXTENT.west + rnd() * (BIG_EXTENT.east - BIG_EXTENT.west);
  const lat = BIG_EXTENT.south + rnd() * (BIG_EXTENT.north - BIG_EXTENT.south);
  return `${i},${(rnd() * 1000).toFixed(3)},c${i % 7},${lon.toFixed(6)},${lat.toFixed(6)}\n`;
}

/** `n` points as CSV with `lon`/`lat` columns (a source without an index: the app indexes it). */
export async function makePointsCsv(file: string, n: number): Promise<void> {
  await writeCsv(file, 'id,value,cat,lon,lat', n, pointRow);
}

/** `n` points as a GeoPackage layer `points` (EPSG:4326) with its R-tree. */
export async function makePointsGpkg(file: string, n: number): Promise<void> {
  const csv = `${file}.csv`;
  await makePointsCsv(csv, n);
  ogr2ogr(file, csv, ['-oo', 'X_POSSIBLE_NAMES=lon', '-oo', 'Y_POSSIBLE_NAMES=lat', '-nln', 'points']);
  execFileSync('rm', ['-f', csv]);
}

/** `n` small squares (side about 0.002°–0.02°) as a GeoPackage layer `squares`. */
export async function makeSquaresGpkg(file: string, n: number): Promise<void> {
  const csv = `${file}.csv`;
  await writeCsv(csv, 'id,value,cat,wkt', n, (i, rnd) => {
    const x = BIG_EXTENT.west + rnd() * (BIG_EXTENT.east - BIG_EXTENT.west);
    const y = BIG_EXTENT.south + rnd() * (BIG_EXTENT.north - BIG_EXTENT.south);
    const d = 0.002 + rnd() * 0.018;
    const [a, b, c, e] = [x.toFixed(6), y.toFixed(6), (x + d).toFixed(6), (y + d).toFixed(6)];
    return `${i},${(rnd() * 1000).toFixed(3)},c${i % 7},"POLYGON ((${a} ${b}, ${c} ${b}, ${c} ${e}, ${a} ${e}, ${a} ${b}))"\n`;
  });
  ogr2ogr(file, csv, ['-oo', 'GEOM_POSSIBLE_NAMES=wkt', '-oo', 'KEEP_GEOM_COLUMNS=NO', '-nlt', 'POLYGON', '-nln', 'squares']);
  execFileSync('rm', ['-f', csv]);
}

function ogr2ogr(file: string, csv: string, extra: string[]): void {
  execFileSync(
    'ogr2ogr',
    [
      '-f',
      'GPKG',
      file,
      csv,
      '-oo',
      'AUTODETECT_TYPE=YES',
      '-a_srs',
      'EPSG:4326',
      '-gt',
      'unlimited',
      ...extra,
      '--config',
      'OGR_SQLITE_SYNCHRONOUS',
      'OFF',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } },
  );
}
