import { parseSource } from '../../src-shared/domain/source.js';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import type { AppSettingsDb } from '../settings/appSettingsDb.js';
import { createRecentPaths, type RecentPath } from './recentPaths.js';

const KEY = 'files.recent';
export const MAX_RECENT = 10;

export type RecentFile = RecentPath;

/**
 * The person's recent files (issue #15): kept per app in `mapwright.sqlite`, not per project, so
 * a file loaded in one project is offered in the next. Newest first, at most MAX_RECENT, each
 * path once. Only local files: a URL is a web source, not a file to reopen.
 */
export function createRecentFiles(db: Pick<AppSettingsDb, 'get' | 'set'>, now: () => Date = () => new Date()) {
  const recent = createRecentPaths(db, KEY, MAX_RECENT, now);
  return {
    list: recent.list,
    /** Called after a successful `layers.load` with the path it loaded. */
    add(path: string): void {
      const cls = classifySource(path);
      if (cls.kind !== 'local' && cls.kind !== 'archive') return;
      recent.add(path);
    },
  };
}

export type RecentFiles = ReturnType<typeof createRecentFiles>;

/** The file name a recent entry shows (the sublayer after it, when one was named). */
export function recentLabel(path: string): string {
  const ref = parseSource(path);
  const name = ref.path.split(/[\\/]/).pop() ?? ref.path;
  return ref.sublayer ? `${name} (${ref.sublayer})` : name;
}
