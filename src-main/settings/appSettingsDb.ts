import { join } from 'node:path';
import type { CapabilityStore, EndpointCapabilities } from '../model/endpointCapabilities.js';
import { createMemoryRepo, MEMORIES_MIGRATION, type MemoryRepo } from '../memory/memoryRepo.js';
import { openSqlite } from '../store/openSqlite.js';

/**
 * The app's own SQLite file, `<home>/mapwright.sqlite`: settings that belong to the person,
 * not to a project (the model endpoint) and what was learnt about endpoints. Never keys:
 * those go to the SecretStore. Migrations are append-only (`user_version`).
 */
const MIGRATIONS: string[] = [
  `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE TABLE endpoint_capabilities (
     endpoint TEXT PRIMARY KEY,
     capabilities TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );`,
  // Issue 17: what the person asked to keep, theirs or a project's (memory/memoryRepo.ts).
  MEMORIES_MIGRATION,
];

export interface AppSettingsDb {
  get<T>(key: string): T | null;
  set(key: string, value: unknown): void;
  readonly capabilities: CapabilityStore;
  /** The person's memories (issue 17): kept here so they follow the person, not a project file. */
  readonly memories: MemoryRepo;
  close(): void;
}

export function appSettingsPath(home: string): string {
  return join(home, 'mapwright.sqlite');
}

export function openAppSettingsDb(home: string, options: { nativeBinding?: string } = {}): AppSettingsDb {
  const db = openSqlite(appSettingsPath(home), MIGRATIONS, options);

  const getSetting = db.prepare('SELECT value FROM settings WHERE key = ?');
  const putSetting = db.prepare(
    'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  );
  const getCaps = db.prepare('SELECT capabilities FROM endpoint_capabilities WHERE endpoint = ?');
  const putCaps = db.prepare(
    'INSERT INTO endpoint_capabilities (endpoint, capabilities, updated_at) VALUES (?, ?, ?) ON CONFLICT(endpoint) DO UPDATE SET capabilities = excluded.capabilities, updated_at = excluded.updated_at',
  );
  const dropCaps = db.prepare('DELETE FROM endpoint_capabilities WHERE endpoint = ?');

  return {
    get<T>(key: string): T | null {
      const row = getSetting.get(key) as { value: string } | undefined;
      return row ? (JSON.parse(row.value) as T) : null;
    },
    set(key, value) {
      putSetting.run(key, JSON.stringify(value), new Date().toISOString());
    },
    capabilities: {
      get(endpoint) {
        const row = getCaps.get(endpoint) as { capabilities: string } | undefined;
        if (!row) return null;
        try {
          return JSON.parse(row.capabilities) as EndpointCapabilities;
        } catch {
          return null;
        }
      },
      set(endpoint, capabilities) {
        putCaps.run(endpoint, JSON.stringify(capabilities), new Date().toISOString());
      },
      forget(endpoint) {
        dropCaps.run(endpoint);
      },
    },
    memories: createMemoryRepo(db),
    close() {
      db.close();
    },
  };
}
