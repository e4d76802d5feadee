import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MethodHandlers } from '../../src-shared/bridge/contract.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import type { RecentPaths } from '../files/recentPaths.js';
import { checkProjectFile, checkProjectPath, projectName } from '../store/projectFile.js';
import { defaultProjectPath, type ProjectStore } from '../store/projectStore.js';
import type { OpenOptions } from '../store/openProjectDb.js';
import { saveProjectAs } from '../store/saveProjectAs.js';

export interface ProjectHandlerDeps {
  home: string;
  store: ProjectStore;
  recent: RecentPaths;
  /**
   * Switches every service to the project at `path` once the current call has answered
   * (projectSession.ts); absent where nothing can switch (tests of one project).
   */
  switchProject?: (path: string) => void;
  openOptions?: OpenOptions;
}

type ProjectMethods = Pick<MethodHandlers, 'project/recent' | 'project/new' | 'project/open' | 'project/save-as' | 'project/set-view'>;

/** The bridge side of projects (issue #15): new, open, save as, recent, the map view. */
export function createProjectHandlers(d: ProjectHandlerDeps): ProjectMethods {
  const switcher = () => {
    if (!d.switchProject) throw new Error('This host cannot switch projects.');
    return d.switchProject;
  };
  const switchTo = (path: string) => {
    switcher()(path);
    return { path };
  };
  return {
    'project/recent': async () => ({
      projects: d.recent.list().map((p) => ({
        ...p,
        name: projectName(p.path),
        exists: existsSync(p.path),
        current: p.path === d.store.info.path,
      })),
    }),
    'project/new': async () => switchTo(freeUntitledPath(d.home)),
    // Paths are normalised (`/a/./b/../c.mapwright`), so the recent list names each project once.
    'project/open': async ({ path }) => {
      checkProjectPath(path);
      const file = resolve(path);
      await checkProjectFile(file, d.openOptions);
      return switchTo(file);
    },
    'project/save-as': async ({ path }) => {
      checkProjectPath(path);
      const file = resolve(path);
      // Before the copy: a host that cannot switch must not leave a copy behind.
      const to = switcher();
      await saveProjectAs(d.store, file, d.openOptions);
      to(file);
      return { path: file };
    },
    'project/set-view': async ({ view, projectId }) => {
      if (projectId !== undefined && projectId !== d.store.info.id) return { saved: false };
      d.store.setView(view);
      return { saved: true };
    },
  };
}

/** `projects/untitled-N.mapwright` in the data folder, the first N not yet taken. */
function freeUntitledPath(home: string): string {
  const first = defaultProjectPath(home);
  if (!existsSync(first)) return first;
  for (let n = 2; ; n++) {
    const path = join(home, 'projects', `untitled-${n}.mapwright`);
    if (!existsSync(path)) return path;
  }
}

/** What `layers/changed` says: the layers, and which of them have lost their file. */
export function layersChangedPayload(store: ProjectStore) {
  const layers = store.layers.list();
  return { layers, missingLayerIds: missingLayerIds(layers) };
}

/**
 * Layers whose local file is not there (the project moved without it, a file deleted). Network
 * sources and database connections are not checked: being offline is not "missing".
 */
export function missingLayerIds(layers: readonly Layer[]): string[] {
  return layers
    .filter((l) => {
      const cls = classifySource(l.source);
      return (cls.kind === 'local' || cls.kind === 'archive') && !existsSync(cls.path);
    })
    .map((l) => l.id);
}
