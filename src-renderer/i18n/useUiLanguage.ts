import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useDisplaySettings } from '../store/useDisplaySettings.js';
import { applyLanguage, isSupportedLanguage } from './i18n.js';

/**
 * Applies the language kept in main's display settings: on start (asked once) and whenever
 * it changes (Settings, or `settings/display-changed` from another window). English until
 * main answers. Used by App: its `useTranslation` re-renders the tree on a change, so helpers
 * that translate outside a hook (format.ts…) are redrawn too.
 */
export function useUiLanguage(): void {
  const display = useDisplaySettings();
  useTranslation();
  const language = display?.language;
  useEffect(() => applyLanguage(isSupportedLanguage(language) ? language : 'en'), [language]);
}
