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
  /**
   * The real path of a file dropped on the page (Electron's `webUtils.getPathForFile`), '' for
   * a File the page made itself. The renderer sends it as typed input: main still asks.
   */
  pathForFile(file: File): string;
};

export type { BridgeClient };
