import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isGisFile } from '../../src-shared/files/gisFiles.js';

/** Tests point the folder browser at a temporary folder; everyone else gets their home. */
export const BROWSE_ROOT_ENV = 'MAPWRIGHT_BROWSE_ROOT';
/** A folder of a million files should not freeze the dialog: the first ones, sorted, and a note. */
export const MAX_ENTRIES = 2_000;
const STAT_BATCH = 64;

export interface FolderEntry {
  name: string;
  kind: 'dir' | 'file';
  size: number;
  /** By extension: the browser marks files that look like data. */
  gis: boolean;
  /** Files only: what the renderer sends back to load this exact file without being asked. */
  token?: string;
}

export interface FolderListing {
  dir: string;
  /** Null at the root: the browser cannot go higher. */
  parent: string | null;
  entries: FolderEntry[];
  /** More entries than MAX_ENTRIES: only the first were listed. */
  truncated: boolean;
}

export interface FolderListingDeps {
  /** The folder the browser starts in and never leaves. */
  root: string;
  /** The app's own files (privatePaths.ts): never listed, never opened. */
  isPrivate(path: string): boolean;
  /** A token for a listed file (fileTokens.ts). */
  issueToken(path: string): string;
  maxEntries?: number;
}

/** A refusal the person can read: the folder is not one the browser shows. */
export class FolderListingError extends Error {}

export function browseRoot(env: Record<string, string | undefined> = process.env): string {
  const fromEnv = env[BROWSE_ROOT_ENV];
  return fromEnv && isAbsolute(fromEnv) ? fromEnv : homedir();
}

/**
 * One folder under the browse root, for the add-data dialog (issue #15). The requested folder
 * is resolved through symbolic links before it is checked, so neither `..` nor a link leads
 * out of the root or into the app's data folder; entries that are links are checked the same
 * way and left out when they point outside. Dotfiles are hidden; folders come first.
 */
export async function listFolder(deps: FolderListingDeps, dir?: string): Promise<FolderListing> {
  const root = await realpath(deps.root).catch(() => {
    throw new FolderListingError('The folder to browse from does not exist.');
  });
  const requested = dir ?? root;
  if (requested.includes('\0')) throw new FolderListingError('A folder name cannot contain a NUL character.');
  if (!isAbsolute(requested)) throw new FolderListingError('The folder must be an absolute path.');
  const real = await realpath(resolve(requested)).catch(() => {
    throw new FolderListingError(`No such folder: ${requested}`);
  });
  if (!within(real, root)) throw new FolderListingError(`Only folders under ${root} can be browsed.`);
  // The browser never shows a hidden folder, so a request into one (~/.ssh) is not the person browsing.
  if (hidden(real, root)) throw new FolderListingError('Hidden folders cannot be browsed.');
  if (deps.isPrivate(real)) throw new FolderListingError("That folder holds Mapwright's own files and cannot be browsed.");
  if (!(await stat(real)).isDirectory()) throw new FolderListingError(`Not a folder: ${requested}`);

  const names = (await readdir(real)).filter((name) => !name.startsWith('.'));
  const entries: FolderEntry[] = [];
  // A few dozen stats at a time: a large folder lists quickly without opening thousands of handles.
  for (let i = 0; i < names.length; i += STAT_BATCH) {
    const described = await Promise.all(names.slice(i, i + STAT_BATCH).map((name) => describe(deps, root, join(real, name))));
    for (const entry of described) if (entry) entries.push(entry);
  }
  entries.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'dir' ? -1 : 1));
  const cap = deps.maxEntries ?? MAX_ENTRIES;
  const shown = entries.slice(0, cap);
  for (const e of shown) if (e.kind === 'file') e.token = deps.issueToken(join(real, e.name));
  return { dir: real, parent: real === root ? null : dirname(real), entries: shown, truncated: entries.length > cap };
}

/** A folder or regular file the browser may show, or null (private, a link out of the root, a socket…). */
async function describe(deps: FolderListingDeps, root: string, full: string): Promise<FolderEntry | null> {
  try {
    const link = await lstat(full);
    if (link.isSymbolicLink()) {
      const target = await realpath(full);
      if (!within(target, root) || hidden(target, root) || deps.isPrivate(target)) return null;
    }
    if (deps.isPrivate(full)) return null;
    const info = link.isSymbolicLink() ? await stat(full) : link;
    const name = basename(full);
    if (info.isDirectory()) return { name, kind: 'dir', size: 0, gis: false };
    if (info.isFile()) return { name, kind: 'file', size: info.size, gis: isGisFile(name) };
    return null;
  } catch {
    // A dangling link or an entry removed while listing: not shown.
    return null;
  }
}

/** Whether a path under the root passes through a dot-named folder or is a dotfile. */
function hidden(path: string, root: string): boolean {
  return relative(root, path)
    .split(sep)
    .some((part) => part.startsWith('.'));
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
