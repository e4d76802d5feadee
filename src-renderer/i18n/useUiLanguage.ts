import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';
import { selectDisplaySettings } from '../store/slices/settingsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { applyLanguage, isSupportedLanguage } from './i18n.js';

/**
 * Applies the language kept in main's display settings: on start (asked once) and whenever
 * it changes (Settings, or `settings/display-changed` from another window). English until
 * main answers. Used by App: its `useTranslation` re-renders the tree on a change, so helpers
 * that translate outside a hook (format.ts…) are redrawn too.
 */
export function useUiLanguage(): void {
  const bridge = useBridge();
  const display = useAppStore(selectDisplaySettings);
  useTranslation();
  useEffect(() => {
    if (display) return;
    let live = true;
    bridge.call('settings/get-display', {}).then(
      (loaded) => live && appStore.getState().setDisplaySettings(loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [bridge, display]);
  const language = display?.language;
  useEffect(() => applyLanguage(isSupportedLanguage(language) ? language : 'en'), [language]);
}
