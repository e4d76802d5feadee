import { DEFAULT_DISPLAY_SETTINGS, DisplaySettings, type DisplaySettingsPatch } from '../../src-shared/domain/settingsDisplay.js';
import type { AppSettingsDb } from './appSettingsDb.js';

const KEY = 'display';

/** The display settings in the app settings file; anything unreadable is the default (offline basemap). */
export function createDisplaySettings(db: Pick<AppSettingsDb, 'get' | 'set'>) {
  return {
    get(): DisplaySettings {
      const parsed = DisplaySettings.safeParse(db.get<unknown>(KEY));
      return parsed.success ? parsed.data : { ...DEFAULT_DISPLAY_SETTINGS };
    },
    set(patch: DisplaySettingsPatch): DisplaySettings {
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      const next = DisplaySettings.parse({ ...this.get(), ...defined });
      db.set(KEY, next);
      return next;
    },
  };
}
export type DisplaySettingsStore = ReturnType<typeof createDisplaySettings>;
