import { z } from 'zod';
import { parseSource } from '../../src-shared/domain/source.js';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import type { AppSettingsDb } from '../settings/appSettingsDb.js';

const KEY = 'files.recent';
export const MAX_RECENT = 10;

const RecentFile = z.object({ path: z.string(), at: z.string() });
export type RecentFile = z.infer<typeof RecentFile>;

/**
 * The person's recent files (issue #15): kept per app in `mapwright.sqlite`, not per project, so
 * a file loaded in one project is offered in the next. Newest first, at most MAX_RECENT, each
 * path once. Only local files: a URL is a web source, not a file to reopen.
 */
export function createRecentFiles(db: Pick<AppSettingsDb, 'get' | 'set'>, now: () => Date = () => new Date()) {
  function list(): RecentFile[] {
    // The stored value is the app's own, but a damaged row should not break the dialog.
    const parsed = z.array(RecentFile).safeParse(db.get(KEY));
    return parsed.success ? parsed.data.slice(0, MAX_RECENT) : [];
  }
  return {
    list,
    /** Called after a successful `layers.load` with the path it loaded. */
    add(path: string): void {
      const cls = classifySource(path);
      if (cls.kind !== 'local' && cls.kind !== 'archive') return;
      const kept = list().filter((f) => f.path !== path);
      db.set(KEY, [{ path, at: now().toISOString() }, ...kept].slice(0, MAX_RECENT));
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
