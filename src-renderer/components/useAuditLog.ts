import { useCallback, useEffect, useRef } from 'react';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';
import { selectAuditFilter } from '../store/slices/auditSlice.js';
import { useAppStore } from '../store/useAppStore.js';

/** Rows fetched per request: the panel is for recent history; filters reach further back. */
const AUDIT_LIMIT = 200;
/** Events come in bursts (a card's last update, then layers, then undo): one fetch per burst. */
const REFRESH_DEBOUNCE_MS = 150;

/**
 * Keeps the open audit panel current: fetches on mount and on every filter change, and again
 * after anything that writes an audit row — a tool card settling, or a change made from the
 * GUI (layers, undo, policy). Only the newest request's answer is shown.
 */
export function useAuditLog(): () => void {
  const bridge = useBridge();
  const filter = useAppStore(selectAuditFilter);
  const generation = useRef(0);

  const refresh = useCallback(async () => {
    const mine = ++generation.current;
    appStore.getState().auditRequested();
    try {
      const { entries } = await bridge.call('audit/list', { ...filter, limit: AUDIT_LIMIT });
      if (mine === generation.current) appStore.getState().auditLoaded(entries);
    } catch (error) {
      if (mine === generation.current) appStore.getState().auditFailed(error instanceof Error ? error.message : String(error));
    }
  }, [bridge, filter]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), REFRESH_DEBOUNCE_MS);
    };
    const offs = [
      bridge.on('message/upserted', ({ tool }) => {
        if (tool && (tool.status === 'ok' || tool.status === 'error' || tool.status === 'rejected')) soon();
      }),
      bridge.on('layers/changed', soon),
      bridge.on('undo/changed', soon),
      bridge.on('policy/changed', soon),
    ];
    return () => {
      clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [bridge, refresh]);

  return useCallback(() => void refresh(), [refresh]);
}
