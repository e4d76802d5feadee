import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Set by main (worker-host/workerSpawn.ts): the folder for what the worker derives from sources. */
export const CACHE_DIR_ENV = 'MAPWRIGHT_CACHE_DIR';

/**
 * A sub-folder of the worker's cache (tile indexes, raster overviews), created on first use.
 * Sources are never written: everything derived from them lives here, keyed by their identity.
 */
export function workerCacheDir(part: string): string {
  const root = process.env[CACHE_DIR_ENV];
  if (!root) throw new Error(`${CACHE_DIR_ENV} is not set: the worker was started without a cache folder`);
  const dir = join(root, part);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
