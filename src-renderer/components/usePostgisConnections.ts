import { useCallback, useEffect, useRef, useState } from 'react';
import type { PgConnectionDraft, PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import { useBridge } from '../bridge/BridgeContext.js';

export interface PostgisConnectionsState {
  connections: PgConnectionListed[];
  /** Where main keeps passwords (the SecretStore's sentence), shown as the panel's note. */
  passwordStore: string;
  loaded: boolean;
  error: string | null;
}

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The saved PostGIS connections, read from main when the panel opens and again after each
 * change made here (connections are app settings; nothing else changes them while it is open).
 * `save` and `remove` throw main's message (a refused draft names its fields) for the caller
 * to show beside the control.
 */
export function usePostgisConnections() {
  const bridge = useBridge();
  const [state, setState] = useState<PostgisConnectionsState>({ connections: [], passwordStore: '', loaded: false, error: null });
  const live = useRef(true);

  const reload = useCallback(async () => {
    try {
      const r = await bridge.call('postgis/connections', {});
      if (live.current) setState({ connections: r.connections, passwordStore: r.passwordStore, loaded: true, error: null });
    } catch (e) {
      if (live.current) setState((s) => ({ ...s, loaded: true, error: messageOf(e) }));
    }
  }, [bridge]);

  useEffect(() => {
    live.current = true;
    void reload();
    return () => {
      live.current = false;
    };
  }, [reload]);

  const save = useCallback(
    async (connection: PgConnectionDraft, password?: string | null): Promise<PgConnectionListed> => {
      const r = await bridge.call('postgis/save-connection', password === undefined ? { connection } : { connection, password });
      await reload();
      return r.connection;
    },
    [bridge, reload],
  );

  const remove = useCallback(
    async (id: string): Promise<void> => {
      await bridge.call('postgis/delete-connection', { id });
      await reload();
    },
    [bridge, reload],
  );

  return { ...state, reload, save, remove };
}
