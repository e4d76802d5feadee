import WebSocket from 'ws';

export interface BridgeEvent {
  name: string;
  payload: unknown;
}

/**
 * The web host's bridge from a test, without a browser: the same WebSocket, token and Origin
 * the page uses. `onEvent` sees every pushed event synchronously as it arrives, so a test can
 * act (kill the host) at an exact point of a run.
 */
export class BridgeSocket {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  readonly events: BridgeEvent[] = [];
  onEvent: (event: BridgeEvent) => void = () => {};

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as
        { type: 'event'; name: string; payload: unknown } | { type: 'response'; id: number; ok: boolean; result?: unknown; error?: string };
      if (frame.type === 'event') {
        const event = { name: frame.name, payload: frame.payload };
        this.events.push(event);
        this.onEvent(event);
        return;
      }
      const waiting = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      if (frame.ok) waiting?.resolve(frame.result);
      else waiting?.reject(new Error(frame.error));
    });
    const failAll = () => {
      for (const w of this.pending.values()) w.reject(new Error('bridge socket closed'));
      this.pending.clear();
    };
    socket.on('close', failAll);
    socket.on('error', failAll);
  }

  /** `pageUrl` is the host's printed `http://127.0.0.1:PORT/?token=…`. */
  static async connect(pageUrl: string): Promise<BridgeSocket> {
    const url = new URL(pageUrl);
    const ws = new WebSocket(`ws://${url.host}/bridge?token=${url.searchParams.get('token')}`, { origin: `http://${url.host}` });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new BridgeSocket(ws);
  }

  call<T = unknown>(method: string, params: object = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.socket.send(JSON.stringify({ type: 'request', id, method, params }));
    });
  }

  close(): void {
    this.socket.terminate();
  }
}
