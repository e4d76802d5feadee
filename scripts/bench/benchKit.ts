/**
 * Shared by the benches: where the checkout and the real data are, the command-line options,
 * GDAL's command line, the real worker process as the app runs it, timing, and the frame of a
 * worker bench (a temp folder and a worker, both gone at the end unless --keep).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkLauncher } from '../../src-main/worker-host/forkLauncher.js';
import { GisWorkerClient, type GisWorkerClientOptions } from '../../src-main/worker-host/GisWorkerClient.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The real data the benches are built from (the shared fixtures beside the checkout). */
export const FIXTURES = path.resolve(ROOT, '..', 'shared', 'fixtures', 'gis');
const ENTRY = path.join(ROOT, 'src-main', 'gis-worker', 'workerMain.ts');
/** GDAL's tools with PAM off, so nothing is written beside the inputs. */
export const ENV = { ...process.env, GDAL_PAM_ENABLED: 'NO' };

/** `--name N` on the command line, else `fallback`. */
export function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

export function flag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

/** The real worker process, as the app runs it. */
export function startWorker(options?: GisWorkerClientOptions): GisWorkerClient {
  return new GisWorkerClient(forkLauncher(ENTRY, ['--import', 'tsx']), options);
}

export function gdal(tool: string, args: string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8', env: ENV, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

export function requireFixture(name: string): string {
  const file = path.join(FIXTURES, name);
  if (!existsSync(file)) throw new Error(`The real data is missing: ${file} (the shared fixtures)`);
  return file;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

export async function timeIt(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Runs a worker bench: `body` gets a fresh temp folder `mapwright-bench-<name>-…` and the real
 * worker (started at its first request), after a line with the GDAL and Node versions. The
 * worker is disposed and the folder removed afterwards (kept with --keep); a failure is printed
 * and the process exits with 1.
 */
export function runWorkerBench(name: string, body: (dir: string, client: GisWorkerClient) => Promise<void>): void {
  const main = async (): Promise<void> => {
    const dir = mkdtempSync(path.join(tmpdir(), `mapwright-bench-${name}-`));
    const client = startWorker();
    try {
      console.log(`GDAL: ${gdal('gdalinfo', ['--version']).trim()}; Node ${process.version}; temp folder ${dir}`);
      await body(dir, client);
    } finally {
      client.dispose();
      if (flag('keep')) console.log(`Kept ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    }
  };
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
