import { useCallback } from 'react';
import { useBridge } from './BridgeContext.js';

/**
 * Runs a tool or command as the user (`entries/trigger`): the GUI's actions go through main's
 * dispatcher like the agent's calls, so they are validated and audited the same way.
 * Resolves to null on success, or a message to show next to the control.
 */
export function useEntryTrigger(): (entry: string, params: Record<string, unknown>) => Promise<string | null> {
  const bridge = useBridge();
  return useCallback(
    async (entry, params) => {
      try {
        const result = await bridge.call('entries/trigger', { entry, params });
        if (result.ok) return null;
        return result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    [bridge],
  );
}

/** What an entry run as the user came back with: its data, or a message to show. */
export type EntryOutcome = { ok: true; data: unknown } | { ok: false; message: string };

/** Like `useEntryTrigger`, for a control that shows what the entry returned (the Export dialog's saved path). */
export function useEntryRun(): (entry: string, params: Record<string, unknown>) => Promise<EntryOutcome> {
  const bridge = useBridge();
  return useCallback(
    async (entry, params) => {
      try {
        const result = await bridge.call('entries/trigger', { entry, params });
        if (result.ok) return { ok: true, data: result.data };
        return { ok: false, message: result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
    [bridge],
  );
}
