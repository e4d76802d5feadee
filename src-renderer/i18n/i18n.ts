import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { catalogues } from './catalogues/index.js';

/**
 * The interface language (issue 15): i18next with react-i18next, resources bundled (no HTTP
 * backend — the renderer fetches nothing but the app's own origin).
 *
 * One namespace per area: `catalogues/<area>.ts` exports `<area> = { en, 'zh-CN' }` and is
 * listed in catalogues/index.ts, which makes it the namespace `<area>`. Components call
 * `useTranslation('<area>')` and then `t('key')`; plain helpers call `i18n.t('<area>:key')`.
 * Words many areas share live in `common` (the fallback namespace: `t('common:close')`).
 * Sentences are whole messages with `{{placeholders}}` and `_one`/`_other` plurals, never
 * pieces joined in code. English is the default and the fallback.
 *
 * Initialised synchronously on import (`initAsync: false`), so helpers used by unit tests
 * under Node translate without a React tree.
 */
export const supportedLanguages = ['en', 'zh-CN'] as const;
export type SupportedLanguage = (typeof supportedLanguages)[number];

type Area = keyof typeof catalogues;
type Resources = { [A in Area]: (typeof catalogues)[A]['en'] };

function resourcesFor(lang: SupportedLanguage) {
  const out: Record<string, Record<string, string>> = {};
  for (const [area, c] of Object.entries(catalogues)) out[area] = c[lang];
  return out;
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: resourcesFor('en'), 'zh-CN': resourcesFor('zh-CN') },
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...supportedLanguages],
  ns: Object.keys(catalogues),
  defaultNS: 'common',
  // Shared words (Close, Cancel…) are found from any area: `t('common:close')` or plain `t('close')`.
  fallbackNS: 'common',
  // React escapes text itself; messages hold no markup.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export function isSupportedLanguage(value: unknown): value is SupportedLanguage {
  return supportedLanguages.includes(value as SupportedLanguage);
}

/** Switches the interface language and the page's `<html lang>` (for fonts and screen readers). */
export function applyLanguage(lang: SupportedLanguage): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    fallbackNS: 'common';
    resources: Resources;
  }
}
