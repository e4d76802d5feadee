import type { Emit } from '../../src-shared/bridge/contract.js';
import { createModelProvider, type ModelProvider } from '../model/modelProvider.js';
import { openAppSettingsDb } from './appSettingsDb.js';
import { fileSecretStore, type SecretStore } from './secretStore.js';
import { createSettingsHandlers, type SettingsHandlers } from './settingsHandlers.js';
import { createSettingsStore } from './settingsService.js';
import { createScorecardStore } from './scorecardStore.js';
import { createDisplaySettings, type DisplaySettingsStore } from './displaySettings.js';
import { createRecentFiles, type RecentFiles } from '../files/recentFiles.js';
import { createRecentPaths, type RecentPaths } from '../files/recentPaths.js';
import { createPgConnectionStore, type PgConnectionStore } from '../postgis/pgConnectionStore.js';
import type { MemoryRepo } from '../memory/memoryRepo.js';

/** The key of the recent projects in the app settings; the first is opened at start. */
export const RECENT_PROJECTS_KEY = 'projects.recent';
const MAX_RECENT_PROJECTS = 10;

/**
 * Everything about the model that the composition root wires: the app settings file, the
 * key store the host provides (Electron: safeStorage; web host: a 0600 file), the provider
 * the agent asks for its client at each run, and the settings methods of the bridge.
 */
export interface ModelLayer {
  provider: ModelProvider;
  handlers: SettingsHandlers;
  /** The display settings (online basemap), kept in the same app settings file. */
  display: DisplaySettingsStore;
  /** The person's recent files (issue #15), in the same app settings file. */
  recentFiles: RecentFiles;
  /** The projects opened, newest first (issue #15); the first is the one a start opens. */
  recentProjects: RecentPaths;
  /** PostgreSQL connections (issue 16): specs in the same app settings file, passwords in the key store. */
  postgis: PgConnectionStore;
  /** Where the key store keeps secrets, one sentence for a panel. */
  secretsNote: string;
  /** The person's memories (issue 17), in the same app settings file. */
  memories: MemoryRepo;
  close(): void;
}

export interface ModelLayerOptions {
  home: string;
  emit: Emit;
  /** From the host; the web host passes none and gets the file store. */
  secrets?: SecretStore;
  sqliteNativeBinding?: string;
  env?: Record<string, string | undefined>;
}

export function createModelLayer(options: ModelLayerOptions): ModelLayer {
  const db = openAppSettingsDb(options.home, options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {});
  const secrets = options.secrets ?? fileSecretStore(options.home);
  const store = createSettingsStore({ db, secrets, ...(options.env ? { env: options.env } : {}) });
  const provider = createModelProvider({
    capabilities: db.capabilities,
    savedConfig: store.savedConfig,
    ...(options.env ? { env: options.env } : {}),
  });
  const display = createDisplaySettings(db);
  return {
    provider,
    display,
    recentFiles: createRecentFiles(db),
    recentProjects: createRecentPaths(db, RECENT_PROJECTS_KEY, MAX_RECENT_PROJECTS),
    postgis: createPgConnectionStore(db, secrets),
    secretsNote: secrets.note,
    memories: db.memories,
    handlers: createSettingsHandlers({ store, provider, emit: options.emit, display, scorecards: createScorecardStore(db) }),
    close: () => db.close(),
  };
}
