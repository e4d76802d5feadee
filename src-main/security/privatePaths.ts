import { realpathSync } from 'node:fs';
import { dirname, basename, join, resolve, sep } from 'node:path';

/** Where the GIS worker's own check finds the private paths (it trusts no caller). */
export const PRIVATE_PATHS_ENV = 'MAPWRIGHT_PRIVATE_PATHS';

/**
 * The app's own files, off limits to every tool (DESIGN §5): the data folder (settings, keys,
 * the app database, skills, the project file with its WAL), except the project's outputs
 * folder, which tools write and then read back. Reading any other local file the person names
 * stays allowed. Paths are compared after resolving `..` and symbolic links, so a link into
 * the data folder is refused like the folder itself.
 */
export class PrivatePaths {
  private readonly roots: string[];
  private readonly exceptions: string[];

  /** Everything under `roots` is private, except what is under `exceptions`. */
  constructor(roots: readonly string[], exceptions: readonly string[] = []) {
    this.roots = unique(roots.flatMap(spellings));
    this.exceptions = unique(exceptions.flatMap(spellings));
  }

  static forProject(opts: { home: string; projectPath: string; outputsDir: string }): PrivatePaths {
    const project = opts.projectPath;
    return new PrivatePaths([opts.home, project, `${project}-wal`, `${project}-shm`, `${project}-journal`], [opts.outputsDir]);
  }

  /** Whether `text` (SQL, XML) spells out one of the roots. */
  mentionedIn(text: string): boolean {
    return this.roots.some((r) => text.includes(r));
  }

  /** True when `path` (absolute; an archive path may continue past the archive) is private. */
  isPrivate(path: string): boolean {
    const candidates = spellings(path);
    const within = (p: string, root: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
    return candidates.some((p) => this.roots.some((r) => within(p, r)) && !this.exceptions.some((e) => within(p, e)));
  }

  /** The roots, for the worker's own check (it trusts no caller). */
  toJSON(): { roots: string[]; exceptions: string[] } {
    return { roots: this.roots, exceptions: this.exceptions };
  }
}

/** The path as written (normalised) and with its longest existing prefix resolved through links. */
function spellings(path: string): string[] {
  const normal = resolve(path);
  return unique([normal, realPrefix(normal)]);
}

function realPrefix(path: string): string {
  let head = path;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...tail);
    } catch {
      const parent = dirname(head);
      if (parent === head) return path;
      tail.unshift(basename(head));
      head = parent;
    }
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
