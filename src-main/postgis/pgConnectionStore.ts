import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { PgConnectionSpec, type PgConnectionDraft, type PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import type { AppSettingsDb } from '../settings/appSettingsDb.js';
import type { SecretStore } from '../settings/secretStore.js';

/** The app settings key of the connection list: the person's, shared by every project. */
export const POSTGIS_CONNECTIONS_KEY = 'postgis.connections';

/** The SecretStore name of a connection's password; nothing else ever holds it. */
export const pgSecretName = (id: string) => `postgis:${id}`;

/**
 * The PostgreSQL connections the person added (issue 16): specs in the app settings
 * (`mapwright.sqlite`), passwords in the SecretStore. Only main reads a password back, to
 * connect; the bridge learns only whether one is stored.
 */
export function createPgConnectionStore(
  db: Pick<AppSettingsDb, 'get' | 'set'>,
  secrets: Pick<SecretStore, 'get' | 'set'>,
  newId: () => string = () => `pg-${randomBytes(6).toString('hex')}`,
) {
  /** Each entry parsed alone: one damaged entry does not hide the others. */
  function specs(): PgConnectionSpec[] {
    const raw = z.array(z.unknown()).safeParse(db.get(POSTGIS_CONNECTIONS_KEY));
    if (!raw.success) return [];
    return raw.data.flatMap((entry) => {
      const parsed = PgConnectionSpec.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  }
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  const listed = (spec: PgConnectionSpec): PgConnectionListed => ({ ...spec, hasPassword: secrets.get(pgSecretName(spec.id)) !== null });

  return {
    list(): PgConnectionListed[] {
      return specs().map(listed);
    },
    get(id: string): PgConnectionSpec | null {
      return specs().find((s) => s.id === id) ?? null;
    },
    /** For main's client factory only; never sent to the renderer or the model. */
    password(id: string): string | null {
      return secrets.get(pgSecretName(id));
    },
    /**
     * Adds or replaces a connection. `password`: a string stores it, null removes it,
     * undefined keeps what is stored. A new connection (no id, or an id not listed) is added.
     */
    save(draft: PgConnectionDraft, password?: string | null): PgConnectionListed {
      const spec = PgConnectionSpec.parse({ ...draft, id: draft.id ?? newId() });
      const all = specs();
      const at = all.findIndex((s) => s.id === spec.id);
      if (at >= 0) all[at] = spec;
      else all.push(spec);
      db.set(POSTGIS_CONNECTIONS_KEY, all);
      if (password !== undefined) secrets.set(pgSecretName(spec.id), password);
      changed();
      return listed(spec);
    },
    /** Removes the spec and its password; false when there was no such connection. */
    delete(id: string): boolean {
      const all = specs();
      const kept = all.filter((s) => s.id !== id);
      // The password goes even if the spec was already gone: no orphan secret stays behind.
      secrets.set(pgSecretName(id), null);
      if (kept.length === all.length) return false;
      db.set(POSTGIS_CONNECTIONS_KEY, kept);
      changed();
      return true;
    },
    /** Called after every save and delete (the GIS worker is told the new list). Returns the remover. */
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type PgConnectionStore = ReturnType<typeof createPgConnectionStore>;
