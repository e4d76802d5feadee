import { z } from 'zod';
import type { AppSettingsDb } from '../settings/appSettingsDb.js';

const RecentPath = z.object({ path: z.string(), at: z.string() });
export type RecentPath = z.infer<typeof RecentPath>;

/**
 * A most-recent-first list of paths kept in the app settings (`mapwright.sqlite`) under `key`:
 * each path once, at most `max`. A damaged row reads as an empty list rather than breaking a dialog.
 */
export function createRecentPaths(db: Pick<AppSettingsDb, 'get' | 'set'>, key: string, max: number, now: () => Date = () => new Date()) {
  function list(): RecentPath[] {
    const parsed = z.array(RecentPath).safeParse(db.get(key));
    return parsed.success ? parsed.data.slice(0, max) : [];
  }
  return {
    list,
    add(path: string): void {
      const kept = list().filter((f) => f.path !== path);
      db.set(key, [{ path, at: now().toISOString() }, ...kept].slice(0, max));
    },
  };
}

export type RecentPaths = ReturnType<typeof createRecentPaths>;
