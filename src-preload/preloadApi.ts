import type { BridgeClient } from '../src-shared/bridge/contract.js';
import type { EventName, MethodName } from '../src-shared/bridge/names.js';

/**
 * What the Electron preload exposes as `window.mapwright`: one function per contract method
 * (named after it) and one subscription per event — never a generic `invoke(channel)`.
 * The renderer wraps it into a `BridgeClient`.
 */
export type PreloadApi = {
  [M in MethodName]: (params: unknown) => Promise<unknown>;
} & {
  on(name: EventName, listener: (payload: unknown) => void): () => void;
};

export type { BridgeClient };
