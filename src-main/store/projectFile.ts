import Database from 'better-sqlite3';
import { open as openFile, stat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import { PROJECT_SCHEMA_VERSION, type OpenOptions } from './openProjectDb.js';

export const PROJECT_EXTENSION = '.mapwright';

/** A refusal the person can read (shown in the project dialog as it is). */
export class ProjectFileError extends Error {}

/** The name a project is shown by: its file name without the extension. */
export function projectName(path: string): string {
  return basename(path).replace(/\.mapwright$/i, '');
}

/** A path the person typed for a project: absolute, with the project extension. */
export function checkProjectPath(path: string): void {
  if (path.includes('\0')) throw new ProjectFileError('A path cannot contain a NUL character.');
  if (!isAbsolute(path)) throw new ProjectFileError('The project path must be absolute.');
  if (!path.toLowerCase().endsWith(PROJECT_EXTENSION)) throw new ProjectFileError(`A project file ends with ${PROJECT_EXTENSION}.`);
}

/**
 * Checks, without changing it, that `path` is a Mapwright project this version can open:
 * opening any other SQLite file as a project would run the migrations into it. Read-only,
 * so a file of someone else's is never written before the person's choice is confirmed.
 */
export async function checkProjectFile(path: string, options: OpenOptions = {}): Promise<void> {
  checkProjectPath(path);
  const info = await stat(path).catch(() => null);
  if (!info) throw new ProjectFileError(`No project file at ${path}.`);
  if (!info.isFile()) throw new ProjectFileError(`Not a file: ${path}.`);
  const header = Buffer.alloc(16);
  const handle = await openFile(path, 'r');
  try {
    await handle.read(header, 0, 16, 0);
  } finally {
    await handle.close();
  }
  if (header.toString('latin1') !== 'SQLite format 3\0') throw new ProjectFileError(`${basename(path)} is not a Mapwright project.`);
  let db: Database.Database | null = null;
  try {
    db = new Database(path, {
      readonly: true,
      fileMustExist: true,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    });
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'project'").get();
    if (!table) throw new ProjectFileError(`${basename(path)} is not a Mapwright project.`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > PROJECT_SCHEMA_VERSION)
      throw new ProjectFileError(`${basename(path)} was saved by a newer Mapwright; update the app to open it.`);
  } catch (err) {
    if (err instanceof ProjectFileError) throw err;
    throw new ProjectFileError(`${basename(path)} could not be read as a project: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    db?.close();
  }
}
