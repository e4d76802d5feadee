import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedEgressEnv, workerEnvironment } from '../net/egressGate.js';
import { PRIVATE_PATHS_ENV } from '../security/privatePaths.js';
import { CACHE_DIR_ENV } from '../gis-worker/cacheDir.js';
import { processAlive } from '../gis-worker/processAlive.js';
import type { WorkerSpawn } from './launcher.js';

/**
 * A worker set-up: the parent's environment without its proxy variables, the egress settings
 * (a closed gate unless one is given), the app's private paths for the worker's own check,
 * and a fresh private working folder (mode 0700) that also holds GDAL's temporary files.
 * `cacheDir` is where the worker keeps what outlives it (tile indexes, raster overviews);
 * without one the cache lives in the working folder and goes with it. `dispose` removes the folder.
 */
export function makeWorkerSpawn(
  opts: { egressEnv?: Record<string, string>; privatePaths?: { roots: string[]; exceptions: string[] }; cacheDir?: string } = {},
): WorkerSpawn & { dispose(): void } {
  removeOrphanedFolders();
  const cwd = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const env = workerEnvironment(process.env, {
    ...(opts.egressEnv ?? closedEgressEnv()),
    CPL_TMPDIR: cwd,
    [CACHE_DIR_ENV]: opts.cacheDir ?? join(cwd, 'cache'),
    ...(opts.privatePaths ? { [PRIVATE_PATHS_ENV]: JSON.stringify(opts.privatePaths) } : {}),
  });
  return { env, cwd, dispose: () => rmSync(cwd, { recursive: true, force: true }) };
}

const PREFIX = 'mapwright-worker-';

/**
 * A main process killed hard cannot remove its worker's folder (GDAL's temporary files may be
 * in it): the next start removes the folders whose main process (the pid in the name) is gone.
 */
function removeOrphanedFolders(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((n) => n.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^mapwright-worker-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}
