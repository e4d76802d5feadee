import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A new file path in `dir` (made if missing) named after `baseName`: letters, digits, _ and -
 * only, at most 60 characters (`fallback` when nothing is left), `_2`, `_3`… when taken. Tools
 * never write over a file, so every output and working copy gets one of these.
 */
export function freeOutputPath(dir: string, baseName: string, extension: string, fallback: string): string {
  mkdirSync(dir, { recursive: true });
  const safe =
    baseName
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || fallback;
  for (let n = 1; ; n++) {
    const candidate = join(dir, `${safe}${n === 1 ? '' : `_${n}`}.${extension}`);
    if (!existsSync(candidate)) return candidate;
  }
}
