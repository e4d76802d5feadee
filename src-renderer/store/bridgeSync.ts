import type { EventName, EventPayload } from '../../src-shared/bridge/contract.js';
import { EVENT_NAMES } from '../../src-shared/bridge/names.js';
import type { RendererBridge } from '../bridge/bridgeTypes.js';
import { unionExtent } from '../map/bbox.js';
import type { AppState, AppStore } from './appStore.js';

/** Where each push event lands; a new event in the contract is a type error here until handled. */
const eventHandlers: { [E in EventName]: (state: AppState, payload: EventPayload<E>) => void } = {
  'run/changed': (s, run) => s.setRun(run),
  'message/upserted': (s, message) => s.upsertMessage(message),
  'assistant/delta': (s, { messageId, delta }) => s.appendDelta(messageId, delta),
  'approval/requested': (s, request) => s.enqueueApproval(request),
  'approval/resolved': (s, { approvalId }) => s.resolveApproval(approvalId),
  'layers/changed': (s, { layers }) => {
    const wasEmpty = s.layers.length === 0;
    s.setLayers(layers);
    // As in a desktop GIS, the first layer of an empty project sets the view.
    const extent = wasEmpty ? unionExtent(layers) : null;
    if (extent) s.requestFit(extent);
  },
  'map/fit-requested': (s, { bbox }) => s.requestFit(bbox),
};

function subscribe<E extends EventName>(bridge: RendererBridge, store: AppStore, name: E): () => void {
  return bridge.on(name, (payload) => eventHandlers[name](store.getState(), payload));
}

/**
 * Keeps the store a mirror of main: subscribes to every event first, then loads app info and
 * the project snapshot; loads again after a reconnect, since events were missed meanwhile.
 */
export function syncStoreWithBridge(bridge: RendererBridge, store: AppStore): () => void {
  const unsubscribes = EVENT_NAMES.map((name) => subscribe(bridge, store, name));
  let generation = 0;

  async function load(): Promise<void> {
    const mine = ++generation;
    try {
      const [info, snapshot] = await Promise.all([bridge.call('app/info', {}), bridge.call('project/get', {})]);
      if (mine !== generation) return; // a newer load superseded this one
      store.getState().setAppInfo(info);
      store.getState().applySnapshot(snapshot);
    } catch (error) {
      if (mine !== generation) return;
      store.getState().setLoadError(error instanceof Error ? error.message : String(error));
    }
  }

  store.getState().setConnection(bridge.connectionState());
  unsubscribes.push(
    bridge.onConnection((state, { reconnected }) => {
      store.getState().setConnection(state);
      if (state === 'open' && reconnected) void load();
    }),
  );
  void load();
  return () => {
    generation += 1;
    for (const off of unsubscribes) off();
  };
}
