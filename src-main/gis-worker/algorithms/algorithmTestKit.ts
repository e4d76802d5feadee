/**
 * Shared by the algorithm tests: one call per algorithm in the real worker process, and GDAL's
 * command-line tools as the referee of vector outputs (ogrinfo text output parsed into rows;
 * rasterTestSupport.ts has the raster side).
 */
import path from 'node:path';
import { formatSource } from '../../../src-shared/domain/source.js';
import type { GisWorkerClient } from '../../worker-host/GisWorkerClient.js';
import type { AlgorithmOutput } from '../protocol.js';
import { gdalCli, type TempDir, workerSuite } from '../testSupport.js';

export interface RunOptions {
  onProgress?: (fraction: number, message: string) => void;
  signal?: AbortSignal;
}

/** Runs one catalogue algorithm into `output` (a raster file, or `path|layername=NAME`). */
export function runAlgorithm(
  client: GisWorkerClient,
  algorithm: string,
  params: Record<string, unknown>,
  output: string,
  opts: RunOptions = {},
): Promise<AlgorithmOutput> {
  return client.call('processing.run', { algorithm, params, output }, { ...opts });
}

/** Runs one catalogue algorithm into `<dir>/<name>.gpkg|layername=<name>`. */
export function runIntoGpkg(
  client: GisWorkerClient,
  dir: string,
  algorithm: string,
  params: Record<string, unknown>,
  name = algorithm,
  opts: RunOptions = {},
): Promise<AlgorithmOutput & { file: string; layer: string }> {
  const file = path.join(dir, `${name}.gpkg`);
  return runAlgorithm(client, algorithm, params, formatSource({ path: file, sublayer: name }), opts).then((r) => ({
    ...r,
    file,
    layer: name,
  }));
}

export interface AlgorithmSuite {
  tmp: TempDir;
  /** A path in the suite's temp folder. */
  out(name: string): string;
  /** The worker client, once the suite's `before` hook has started it. */
  worker(): GisWorkerClient;
  /** `runAlgorithm` on the suite's worker. */
  run(algorithm: string, params: Record<string, unknown>, output: string, opts?: RunOptions): Promise<AlgorithmOutput>;
  /** `runIntoGpkg` on the suite's worker, into its temp folder. */
  runGpkg(
    algorithm: string,
    params: Record<string, unknown>,
    name?: string,
    opts?: RunOptions,
  ): Promise<AlgorithmOutput & { file: string; layer: string }>;
}

/**
 * The setup of a describe block of algorithm tests: `workerSuite`'s real worker and temp folder,
 * with the runners bound to them.
 */
export function algorithmSuite(prefix?: string): AlgorithmSuite {
  let client: GisWorkerClient | undefined;
  const { tmp, out } = workerSuite((started) => (client = started), prefix);
  const worker = (): GisWorkerClient => {
    if (!client) throw new Error('the worker starts in the suite’s before hook');
    return client;
  };
  return {
    tmp,
    out,
    worker,
    run: (algorithm, params, output, opts) => runAlgorithm(worker(), algorithm, params, output, opts),
    runGpkg: (algorithm, params, name, opts) => runIntoGpkg(worker(), tmp.dir, algorithm, params, name, opts),
  };
}

export type Row = Record<string, string | null>;

/**
 * Rows of an ogrinfo SQL query (SQLite dialect, read-only): each `name (Type) = value` line
 * of each feature; `(null)` becomes null. Geometries are not printed.
 */
export function ogrRows(file: string, sql: string, openOptions: string[] = []): Row[] {
  const out = gdalCli('ogrinfo', [
    '-ro',
    '-q',
    '-geom=NO',
    ...openOptions.flatMap((o) => ['-oo', o]),
    '-dialect',
    'SQLite',
    '-sql',
    sql,
    file,
  ]);
  const rows: Row[] = [];
  let row: Row | null = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('OGRFeature(')) {
      row = {};
      rows.push(row);
      continue;
    }
    const m = /^ {2}(.+?) \([A-Za-z0-9]+(?:\([^)]*\))?\) = (.*)$/.exec(line);
    if (m && row) row[m[1]!] = m[2] === '(null)' ? null : m[2]!;
  }
  return rows;
}

/** One number from an ogrinfo SQL query. */
export function ogrNumber(file: string, sql: string, openOptions: string[] = []): number {
  const rows = ogrRows(file, sql, openOptions);
  const value = rows[0] ? Object.values(rows[0])[0] : undefined;
  if (value === undefined || value === null) throw new Error(`no value for ${sql} on ${file}`);
  return Number(value);
}

/** `ogrinfo -so` of one layer, as text (CRS WKT, geometry type, feature count, fields). */
export function ogrSo(file: string, layer: string): string {
  return gdalCli('ogrinfo', ['-ro', '-so', file, layer]);
}

export function featureCountOf(file: string, layer: string): number {
  const m = /Feature Count: (\d+)/.exec(ogrSo(file, layer));
  return m ? Number(m[1]) : NaN;
}

/** cycle_hire_xy.csv as GDAL's CLI reads it with coordinates and types (the app opens it so too). */
export const CSV_POINTS = ['X_POSSIBLE_NAMES=X', 'Y_POSSIBLE_NAMES=Y', 'AUTODETECT_TYPE=YES'];

export function relClose(actual: number, expected: number, rel: number): boolean {
  return Math.abs(actual - expected) <= Math.abs(expected) * rel;
}
