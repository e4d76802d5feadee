import { useCallback, useEffect } from 'react';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';
import { selectConnection } from '../store/slices/appInfoSlice.js';
import { useAppStore } from '../store/useAppStore.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Keeps the open Memory panel current: the list on mount and after a reconnect (changes pushed
 * meanwhile were missed); `memory/changed` keeps it current otherwise (bridgeSync.ts). Returns
 * the panel's two actions, run in main as the person through `entries/trigger` (user-only tools:
 * validated and audited there); each resolves to whether main did it.
 */
export function useMemoryList(): { edit(id: string, text: string): Promise<boolean>; remove(id: string): Promise<boolean> } {
  const bridge = useBridge();
  const connection = useAppStore(selectConnection);

  useEffect(() => {
    if (connection !== 'open') return;
    let live = true;
    bridge.call('memory/list', {}).then(
      ({ memories }) => live && appStore.getState().setMemories(memories),
      (error: unknown) => live && appStore.getState().memoryFailed(message(error)),
    );
    return () => {
      live = false;
    };
  }, [bridge, connection]);

  const run = useCallback(
    async (entry: 'memory.edit' | 'memory.remove', params: Record<string, unknown>) => {
      try {
        const result = await bridge.call('entries/trigger', { entry, params });
        if (!result.ok) appStore.getState().memoryFailed(result.error.message);
        return result.ok;
      } catch (error) {
        appStore.getState().memoryFailed(message(error));
        return false;
      }
    },
    [bridge],
  );

  return {
    edit: useCallback((id, text) => run('memory.edit', { id, text }), [run]),
    remove: useCallback((id) => run('memory.remove', { id }), [run]),
  };
}
