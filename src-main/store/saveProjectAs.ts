import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, rm } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { isInside } from '../paths/isInside.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { mapLayerPaths } from './layerRepo.js';
import { openProjectDb, type OpenOptions } from './openProjectDb.js';
import { checkProjectPath, ProjectFileError, projectName } from './projectFile.js';
import { projectRelativePaths } from './projectRelativePaths.js';
import { outputsDirOf, type ProjectStore } from './projectStore.js';
import type { DataChange } from './snapshotRepo.js';

/**
 * Save as (issue #15): the project file is copied whole (layers, conversations, audit, undo
 * history) to `target`, and its outputs folder beside it, since the project's working copies,
 * imports and results live there. Paths into the old outputs folder then point into the new
 * one; every path is stored again relative to the new folder where it lies below it. Nothing
 * is overwritten: an existing file or outputs folder at the target is refused. The open
 * project is left as it was; the caller switches to the copy.
 */
export async function saveProjectAs(store: ProjectStore, target: string, options: OpenOptions = {}): Promise<void> {
  checkProjectPath(target);
  const to = resolve(target);
  const fromOutputs = outputsDirOf(store.info.path);
  const toOutputs = outputsDirOf(to);
  if (existsSync(to)) throw new ProjectFileError(`${to} already exists; choose another name.`);
  if (existsSync(toOutputs)) throw new ProjectFileError(`${toOutputs} already exists; choose another name.`);
  if (within(to, fromOutputs)) throw new ProjectFileError('A project cannot be saved inside its own outputs folder.');
  await mkdir(dirname(to), { recursive: true });
  try {
    store.copyTo(to);
    if (existsSync(fromOutputs)) await cp(fromOutputs, toOutputs, { recursive: true, errorOnExist: true, force: false });
    const moveOutputs = (path: string) => (within(path, fromOutputs) ? resolve(toOutputs, relative(fromOutputs, path)) : path);
    rebaseProjectFile(to, dirname(store.info.path), moveOutputs, options);
  } catch (err) {
    // A half-made copy is worse than none: the person tries again with the message.
    await rm(to, { force: true });
    await rm(toOutputs, { recursive: true, force: true });
    throw err instanceof ProjectFileError ? err : new ProjectFileError(`The project could not be saved: ${(err as Error).message}`);
  }
}

/**
 * Rewrites every stored path of the project file at `file`, whose relative paths were taken
 * from `fromDir`: read absolute, moved by `move`, stored relative to the file's own folder.
 * The copy gets its own id and a name from its file name.
 */
function rebaseProjectFile(file: string, fromDir: string, move: (abs: string) => string, options: OpenOptions): void {
  const from = projectRelativePaths(fromDir);
  const to = projectRelativePaths(dirname(file));
  const rebase = (stored: string) => to.toStored(move(from.fromStored(stored)));
  const db = openProjectDb(file, options);
  try {
    db.transaction(() => {
      const layers = db.prepare('SELECT id, source, editing FROM layers').all() as { id: string; source: string; editing: string | null }[];
      const setLayer = db.prepare('UPDATE layers SET source = ?, editing = ? WHERE id = ?');
      for (const l of layers) {
        const editing = l.editing ? (JSON.parse(l.editing) as { originalSource: string }) : null;
        if (editing) editing.originalSource = rebase(editing.originalSource);
        setLayer.run(rebase(l.source), editing ? JSON.stringify(editing) : null, l.id);
      }
      const snapshots = db.prepare('SELECT id, layers, data_changes FROM snapshots').all() as {
        id: number;
        layers: string;
        data_changes: string | null;
      }[];
      const setSnapshot = db.prepare('UPDATE snapshots SET layers = ?, data_changes = ? WHERE id = ?');
      for (const s of snapshots) {
        const kept = (JSON.parse(s.layers) as Layer[]).map((l) => mapLayerPaths(l, rebase));
        const changes = s.data_changes
          ? (JSON.parse(s.data_changes) as DataChange[]).map((c) => ({ ...c, source: rebase(c.source) }))
          : null;
        setSnapshot.run(JSON.stringify(kept), changes ? JSON.stringify(changes) : null, s.id);
      }
      db.prepare('UPDATE project SET id = ?, name = ?').run(randomUUID(), projectName(file));
    })();
  } finally {
    db.close();
  }
}

function within(path: string, dir: string): boolean {
  return path === dir || isInside(dir, path);
}
