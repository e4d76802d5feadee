import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isInside } from '../paths/isInside.js';

/**
 * How a project file stores the paths of its sources (issue #15): a file at or below the
 * project's folder is kept relative to it (`./data/roads.gpkg`, POSIX separators, like QGIS),
 * so the folder can be moved or shared; anything else stays as it was. GDAL's file-based
 * virtual file systems (`/vsizip/` …) keep their prefix with the path after it relative.
 * Network sources (`/vsicurl/`, URLs) and connection strings never match and pass unchanged.
 */
export interface SourcePaths {
  /** The folder relative paths are taken from. */
  readonly dir: string;
  /** The form written to the project file. */
  toStored(source: string): string;
  /** The absolute form every reader gets. */
  fromStored(stored: string): string;
}

// Only the VSI handlers whose path is a local file; the others reach the network or memory.
const FILE_VSI = /^((?:\/vsi(?:zip|gzip|tar|7z|rar)\/)+)(.*)$/;
const RELATIVE = './';

export function projectRelativePaths(dir: string): SourcePaths {
  const base = resolve(dir);
  function relativize(path: string): string | null {
    if (!isAbsolute(path) || !isInside(base, path)) return null;
    return RELATIVE + relative(base, path).split(sep).join('/');
  }
  return {
    dir: base,
    toStored(source) {
      const vsi = FILE_VSI.exec(source);
      if (vsi) {
        const rel = relativize(vsi[2]!);
        return rel ? vsi[1]! + rel : source;
      }
      return relativize(source) ?? source;
    },
    fromStored(stored) {
      const vsi = FILE_VSI.exec(stored);
      const prefix = vsi ? vsi[1]! : '';
      const rest = vsi ? vsi[2]! : stored;
      if (!rest.startsWith(RELATIVE)) return stored;
      return prefix + resolve(base, rest);
    },
  };
}

/** Paths kept as they are: for stores that are not a project file (tests, migrations). */
export const ABSOLUTE_PATHS: SourcePaths = { dir: '', toStored: (s) => s, fromStored: (s) => s };
