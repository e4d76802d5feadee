import { EVENT_NAMES } from '../../src-shared/bridge/names.js';
import type { PreloadApi } from '../../src-preload/preloadApi.js';
import type { ConnectionListener, RendererBridge } from './bridgeTypes.js';
import { EventHub } from './eventHub.js';

/** Electron prefixes rejected invokes with this; the person should read only main's message. */
const INVOKE_PREFIX = /^Error invoking remote method '[^']*': (?:\w*Error: )?/;

/** Wraps Electron's `window.mapwright` (one function per method) into a `RendererBridge`. */
export function createPreloadBridgeClient(api: PreloadApi): RendererBridge {
  const hub = new EventHub();
  const unsubscribes = EVENT_NAMES.map((name) => api.on(name, (payload) => hub.dispatch(name, payload)));
  let state: 'open' | 'closed' = 'open';

  return {
    transport: 'preload',
    async call(method, params) {
      try {
        return (await api[method](params)) as never;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(message.replace(INVOKE_PREFIX, ''));
      }
    },
    on: (name, listener) => hub.on(name, listener),
    connectionState: () => state,
    // IPC does not drop: the only change is our own dispose.
    onConnection: (_listener: ConnectionListener) => () => {},
    dispose() {
      state = 'closed';
      for (const off of unsubscribes) off();
    },
  };
}
