import type { BridgeClient } from '../../src-shared/bridge/contract.js';

/** `connecting` before the first open, `reconnecting` after a drop, `closed` once disposed. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export type ConnectionListener = (state: ConnectionState, info: { reconnected: boolean }) => void;

/**
 * The contract's `BridgeClient` plus what the renderer needs to know about the transport.
 * Everything above `bridge/` uses only this, so it runs unchanged under Electron and the web host.
 */
export interface RendererBridge extends BridgeClient {
  readonly transport: 'preload' | 'websocket';
  connectionState(): ConnectionState;
  /**
   * Called on every change. `open` with `reconnected: true` means events may have been missed
   * while the connection was down: the caller re-fetches state.
   */
  onConnection(listener: ConnectionListener): () => void;
  dispose(): void;
}
