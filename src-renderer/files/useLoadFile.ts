import { useCallback, useMemo } from 'react';
import type { Result } from '../../src-shared/bridge/contract.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';

/** A failed tool result in one line, as the controls show it. */
function messageOf(result: Result<'files/load'>): string | null {
  if (result.ok) return null;
  return result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message;
}

/**
 * The two ways the GUI loads a file as the person (issue #15). Both resolve to null on success
 * or a message to show.
 * - `byToken`: a file main listed, remembered or stored itself: `files/load` runs `layers.load`
 *   on main's own path, without a dialog.
 * - `byPath`: text the person typed (or Electron's path of a dropped file): `entries/trigger`,
 *   which asks, since main cannot tell it from text the page made up.
 */
export function useLoadFile() {
  const bridge = useBridge();
  const trigger = useEntryTrigger();
  const byToken = useCallback(
    async (token: string): Promise<string | null> => {
      try {
        return messageOf(await bridge.call('files/load', { token }));
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    [bridge],
  );
  const byPath = useCallback((path: string) => trigger('layers.load', { path }), [trigger]);
  // Stable, so effects that load (useFileDrop) do not re-subscribe on every render.
  return useMemo(() => ({ byToken, byPath }), [byToken, byPath]);
}
