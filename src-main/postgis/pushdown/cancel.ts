import type { PushdownSession } from './types.js';

/**
 * Stop for a statement running on the server: an AbortSignal cannot reach a query already
 * sent, so on abort a second connection asks the server to cancel the session's backend
 * (pg_cancel_backend, allowed for one's own role). The running statement then fails with
 * query_canceled and the caller rolls back. `settle()` waits for the request, so the rollback
 * is not sent before the cancel has landed (a cancel that finds the session idle is ignored).
 */
export interface CancelGuard {
  readonly aborted: boolean;
  /** Waits for a cancel request in flight (never throws). */
  settle(): Promise<void>;
  /** Stops listening to the signal. */
  dispose(): void;
}

export function cancelGuard(session: PushdownSession, backendPid: number, signal: AbortSignal | undefined): CancelGuard {
  let request: Promise<void> | null = null;
  const onAbort = () => {
    request ??= cancelBackend(session, backendPid).catch(() => undefined);
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    get aborted() {
      return signal?.aborted ?? false;
    },
    settle: async () => {
      await request;
    },
    dispose: () => signal?.removeEventListener('abort', onAbort),
  };
}

async function cancelBackend(session: PushdownSession, pid: number): Promise<void> {
  const control = await session.openControl();
  try {
    await control.query('SELECT pg_cancel_backend($1)', [pid]);
  } finally {
    await control.end().catch(() => undefined);
  }
}
