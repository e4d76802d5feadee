import { DEFAULT_DISPLAY_SETTINGS, DisplaySettings } from '../../src-shared/domain/settingsDisplay.js';
import type { AppSettingsDb } from './appSettingsDb.js';

const KEY = 'display';

/** The display settings in the app settings file; anything unreadable is the default (offline basemap). */
export function createDisplaySettings(db: Pick<AppSettingsDb, 'get' | 'set'>) {
  return {
    get(): DisplaySettings {
      const parsed = DisplaySettings.safeParse(db.get<unknown>(KEY));
      return parsed.success ? parsed.data : { ...DEFAULT_DISPLAY_SETTINGS };
    },
    set(patch: Partial<DisplaySettings>): DisplaySettings {
      const next = DisplaySettings.parse({ ...this.get(), ...patch });
      db.set(KEY, next);
      return next;
    },
  };
}
export type DisplaySettingsStore = ReturnType<typeof createDisplaySettings>;
