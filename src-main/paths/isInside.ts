import { isAbsolute, relative } from 'node:path';

/** True when `path` lies below `dir` (not `dir` itself), by the paths as written: no links are followed. */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
