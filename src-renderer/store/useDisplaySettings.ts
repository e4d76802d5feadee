import { useEffect } from 'react';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from './appStore.js';
import { selectDisplaySettings } from './slices/settingsSlice.js';
import { useAppStore } from './useAppStore.js';

/**
 * Main's display settings (online basemap, language): asked for once when the store has none,
 * then kept current by `settings/display-changed`. Null until main has answered.
 */
export function useDisplaySettings() {
  const bridge = useBridge();
  const display = useAppStore(selectDisplaySettings);
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
  return display;
}
