import type { PreloadApi } from '../../src-preload/preloadApi.js';
import type { RendererBridge } from './bridgeTypes.js';
import { createPreloadBridgeClient } from './preloadBridgeClient.js';
import { createWsBridgeClient, wsUrlFromLocation } from './wsBridgeClient.js';

export type { ConnectionState, RendererBridge } from './bridgeTypes.js';

/**
 * The renderer's one bridge: Electron's preload API when present, else the web host's
 * WebSocket at this page's own host (the page URL carries the token).
 */
export function createBridgeClient(win: Window = window): RendererBridge {
  const preload = (win as Window & { mapwright?: PreloadApi }).mapwright;
  if (preload) return createPreloadBridgeClient(preload);
  return createWsBridgeClient({ url: wsUrlFromLocation(win.location) });
}
