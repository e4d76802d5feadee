import type { Emit } from '../../src-shared/bridge/contract.js';
import type { McpServing } from '../mcp-server/mcpEndpoints.js';
import { createRecentPaths } from '../files/recentPaths.js';
import { openAppSettingsDb } from '../settings/appSettingsDb.js';
import { RECENT_PROJECTS_KEY } from '../settings/modelLayer.js';
import { checkProjectFile } from '../store/projectFile.js';
import { defaultProjectPath } from '../store/projectStore.js';
import { createServices } from './createServices.js';
import type { Services, ServicesOptions } from './services.js';

type SessionOptions = Omit<ServicesOptions, 'projectPath' | 'switchProject'>;

/**
 * The services of one open project at a time (issue #15). Every main-process service is built
 * for one project file (its store, its private paths, its outputs, its worker's rules), so
 * switching project closes them all and builds them again for the other file, rather than
 * teaching each service to change project under its callers. The hosts see one `Services`
 * throughout: calls arriving during a switch wait for it; connected windows are attached to the
 * new services and told with `project/switched` (they reload). A project that fails to open
 * leaves the previous one open, and the windows are told why.
 */
export async function createProjectSession(options: SessionOptions): Promise<Services & { mcp: McpServing }> {
  const build = (projectPath: string) => createServices({ ...options, projectPath, switchProject });
  let currentPath = await startingProject(options);
  let current = await build(currentPath);
  let switching: Promise<void> | null = null;
  let closed = false;
  // Each window's push channel, with its unsubscribe from the current services.
  const windows = new Map<Emit, () => void>();

  function switchProject(path: string): void {
    if (switching) throw new Error('A project is already being opened.');
    // After the call that asked has answered: the services answering it are the ones closed here.
    switching = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => replace(path))
      // Neither project could be opened again: the calls that follow say so themselves.
      .catch((err: unknown) => console.error('[project] switching failed:', err))
      .finally(() => {
        switching = null;
      });
  }

  async function replace(path: string): Promise<void> {
    const told = [...windows.keys()];
    const previous = currentPath;
    await detach();
    let error: string | null = null;
    try {
      current = await build(path);
      currentPath = path;
    } catch (err) {
      error = `${path} could not be opened: ${err instanceof Error ? err.message : String(err)}`;
      current = await build(previous);
    }
    for (const emit of windows.keys()) windows.set(emit, current.connect(emit));
    for (const emit of told) emit('project/switched', { path: error ? previous : path, error });
  }

  /** Closes the current services, the windows kept aside until the next ones are up. */
  async function detach(): Promise<void> {
    for (const [emit, unsubscribe] of windows) {
      unsubscribe();
      windows.set(emit, () => undefined);
    }
    await current.close();
  }

  const ready = async () => {
    while (switching) await switching;
    if (closed) throw new Error('The app is closing.');
    return current;
  };

  return {
    get handlers() {
      return current.handlers;
    },
    mcp: current.mcp,
    invoke: async (method, params) => (await ready()).invoke(method, params),
    serveData: async (path, request) => (await ready()).serveData(path, request),
    runForPerson: async (entry, params) => (await ready()).runForPerson(entry, params),
    importFile: async (req) => {
      const services = await ready();
      if (!services.importFile) throw new Error('This host does not take uploads.');
      return services.importFile(req);
    },
    connect(emit) {
      // During a switch the window is attached when the new services are up.
      windows.set(emit, switching ? () => undefined : current.connect(emit));
      return () => {
        windows.get(emit)?.();
        windows.delete(emit);
      };
    },
    async close() {
      if (closed) return;
      await switching?.catch(() => undefined);
      closed = true;
      await current.close();
    },
  };
}

/** The project a start opens: the most recent one that is still a project, else the default. */
async function startingProject(options: SessionOptions): Promise<string> {
  const db = openAppSettingsDb(options.home, options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {});
  let recent: string[];
  try {
    recent = createRecentPaths(db, RECENT_PROJECTS_KEY, Infinity)
      .list()
      .map((p) => p.path);
  } finally {
    db.close();
  }
  for (const path of recent) {
    const usable = await checkProjectFile(path).then(
      () => true,
      () => false,
    );
    if (usable) return path;
  }
  return defaultProjectPath(options.home);
}
