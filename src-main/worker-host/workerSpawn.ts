import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedEgressEnv, workerEnvironment } from '../net/egressGate.js';
import { PRIVATE_PATHS_ENV } from '../security/privatePaths.js';
import type { WorkerSpawn } from './launcher.js';


/**
 * A worker set-up: the parent's environment without its proxy variables, the egress settings
 * (a closed gate unless one is given), the app's private paths for the worker's own check,
 * and a fresh private working folder (mode 0700) that also holds GDAL's temporary files.
 * `dispose` removes the folder.
 */
export function makeWorkerSpawn(opts: { egressEnv?: Record<string, string>; privatePaths?: { roots: string[]; exceptions: string[] } } = {}): WorkerSpawn & { dispose(): void } {
  const cwd = mkdtempSync(join(tmpdir(), 'mapwright-worker-'));
  const env = workerEnvironment(process.env, {
    ...(opts.egressEnv ?? closedEgressEnv()),
    CPL_TMPDIR: cwd,
    ...(opts.privatePaths ? { [PRIVATE_PATHS_ENV]: JSON.stringify(opts.privatePaths) } : {}),
  });
  return { env, cwd, dispose: () => rmSync(cwd, { recursive: true, force: true }) };
}
