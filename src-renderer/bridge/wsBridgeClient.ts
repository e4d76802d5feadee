import type { MethodName, Params, Result } from '../../src-shared/bridge/contract.js';
import { WS_PATH, type WsClientFrame, type WsServerFrame } from '../../src-shared/bridge/wsProtocol.js';
import type { ConnectionListener, ConnectionState, RendererBridge } from './bridgeTypes.js';
import { EventHub } from './eventHub.js';

/** The few WebSocket members used here, so tests can pass a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface WsBridgeOptions {
  url: string;
  createSocket?: (url: string) => WebSocketLike;
  /** First retry delay; doubles on each failed attempt up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

const OPEN = 1;

interface Pending {
  frame: string;
  sent: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The frame's envelope, checked by hand: `WsServerFrame`'s zod schema is a discriminated union
 * with two `response` members, which zod 4 refuses at parse time. Payloads are checked later
 * (events by the contract in EventHub; results are typed by the method).
 */
export function readServerFrame(data: unknown): WsServerFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(String(data));
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  if (value.type === 'event') {
    return typeof value.name === 'string' ? { type: 'event', name: value.name, payload: value.payload } : null;
  }
  if (value.type !== 'response' || typeof value.id !== 'number') return null;
  if (value.ok === true) return { type: 'response', id: value.id, ok: true, result: value.result };
  if (value.ok === false) return { type: 'response', id: value.id, ok: false, error: String(value.error ?? 'Request failed') };
  return null;
}

/** `ws(s)://<host>/bridge?token=…`, the token taken from the page's own URL. */
export function wsUrlFromLocation(location: Pick<Location, 'protocol' | 'host' | 'search'>): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${WS_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * The web host's transport. Requests made while the socket is down wait and go out on the next
 * open; requests already sent when it drops are rejected (their answers are lost with the
 * socket). The socket reconnects with capped exponential backoff until disposed.
 */
export function createWsBridgeClient(options: WsBridgeOptions): RendererBridge {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as WebSocketLike);
  const initialDelay = options.initialDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 8000;
  const hub = new EventHub();
  const pending = new Map<number, Pending>();
  const connectionListeners = new Set<ConnectionListener>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocketLike | null = null;
  let nextId = 1;
  let failedAttempts = 0;
  let everOpened = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  function setState(next: ConnectionState, reconnected = false): void {
    if (next === state && !reconnected) return;
    state = next;
    for (const listener of [...connectionListeners]) listener(next, { reconnected });
  }

  function flush(): void {
    if (!socket || socket.readyState !== OPEN) return;
    for (const request of pending.values()) {
      if (request.sent) continue;
      socket.send(request.frame);
      request.sent = true;
    }
  }

  function onMessage(data: unknown): void {
    const frame = readServerFrame(data);
    if (!frame) {
      console.error('[bridge] dropped a malformed frame', String(data).slice(0, 200));
      return;
    }
    if (frame.type === 'event') {
      hub.dispatch(frame.name, frame.payload);
      return;
    }
    const request = pending.get(frame.id);
    if (!request) return;
    pending.delete(frame.id);
    if (frame.ok) request.resolve(frame.result);
    else request.reject(new Error(frame.error));
  }

  function connect(): void {
    retryTimer = null;
    const current = createSocket(options.url);
    socket = current;
    current.onmessage = (ev) => onMessage(ev.data);
    current.onopen = () => {
      if (socket !== current) return;
      failedAttempts = 0;
      const reconnected = everOpened;
      everOpened = true;
      flush();
      setState('open', reconnected);
    };
    current.onerror = () => {}; // a close always follows; handled there
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      for (const [id, request] of pending) {
        if (!request.sent) continue;
        pending.delete(id);
        request.reject(new Error('The connection to Mapwright was lost; please try again.'));
      }
      if (state === 'closed') return;
      setState(everOpened ? 'reconnecting' : 'connecting');
      const delay = Math.min(maxDelay, initialDelay * 2 ** failedAttempts);
      failedAttempts += 1;
      // Jitter keeps several tabs from hammering a restarting host in step.
      retryTimer = setTimeout(connect, delay * (0.75 + Math.random() * 0.5));
    };
  }

  connect();

  return {
    transport: 'websocket',
    call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
      if (state === 'closed') return Promise.reject(new Error('The bridge is closed.'));
      const id = nextId++;
      const frame: WsClientFrame = { type: 'request', id, method, params };
      return new Promise<Result<M>>((resolve, reject) => {
        pending.set(id, { frame: JSON.stringify(frame), sent: false, resolve: resolve as (v: unknown) => void, reject });
        flush();
      });
    },
    on: (name, listener) => hub.on(name, listener),
    connectionState: () => state,
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => {
        connectionListeners.delete(listener);
      };
    },
    dispose() {
      setState('closed');
      if (retryTimer) clearTimeout(retryTimer);
      const closing = socket;
      socket = null;
      closing?.close(1000, 'disposed');
      for (const request of pending.values()) request.reject(new Error('The bridge is closed.'));
      pending.clear();
    },
  };
}
