import { z } from 'zod';

/**
 * The person's display settings (app-wide, not per project), kept in the app settings file.
 * The offline basemap is the default; an online basemap is a choice the person makes here.
 */
/** The interface languages (issue 15); English is the default and what tests expect. */
export const UI_LANGUAGES = ['en', 'zh-CN'] as const;
export const UiLanguage = z.enum(UI_LANGUAGES);
export type UiLanguage = z.infer<typeof UiLanguage>;

export const DisplaySettings = z.object({
  /** Draw OpenStreetMap's raster tiles under the layers instead of the offline Natural Earth map. */
  onlineBasemap: z.boolean(),
  /** The interface language; a settings file from before it existed reads as English. */
  language: UiLanguage.default('en'),
});
export type DisplaySettings = z.infer<typeof DisplaySettings>;

/**
 * A change to some display settings. Not `DisplaySettings.partial()`: zod 4 applies the
 * language's default inside `.optional()`, so a patch naming only the basemap would reset it.
 */
export const DisplaySettingsPatch = z.object({ onlineBasemap: z.boolean().optional(), language: UiLanguage.optional() });
export type DisplaySettingsPatch = z.infer<typeof DisplaySettingsPatch>;

export const DEFAULT_DISPLAY_SETTINGS: DisplaySettings = { onlineBasemap: false, language: 'en' };

/**
 * The one online basemap: OpenStreetMap's standard tiles. The renderer never fetches them
 * itself (its CSP allows only the app's own origin): it asks main's data route
 * `tiles/basemap-online/Z/X/Y.png`, which fetches this template — and nothing else — while the
 * setting is on, through the SSRF guard, with a User-Agent naming the app as the OSM tile
 * usage policy asks.
 */
export const ONLINE_BASEMAP = {
  template: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  maxZoom: 19,
  /** The data route's prefix (under the host's data base URL; `tiles/` is a prefix both hosts pass to main). */
  route: 'tiles/basemap-online',
} as const;
