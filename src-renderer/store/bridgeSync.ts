import type { EventName, EventPayload } from '../../src-shared/bridge/contract.js';
import { EVENT_NAMES } from '../../src-shared/bridge/names.js';
import type { RendererBridge } from '../bridge/bridgeTypes.js';
import { unionExtent } from '../map/bbox.js';
import type { AppState, AppStore } from './appStore.js';

/** Where each push event lands; a new event in the contract is a type error here until handled. */
const eventHandlers: { [E in EventName]: (state: AppState, payload: EventPayload<E>) => void } = {
  'run/changed': (s, run) => {
    s.setRun(run);
    // Nothing runs once the run is over, whatever progress events were missed.
    if (run.status === 'idle') s.clearProgress();
  },
  'message/upserted': (s, message) => {
    s.upsertMessage(message);
    const tool = message.tool;
    if (tool && tool.status !== 'running' && tool.status !== 'pending') s.clearProgress(tool.callId);
  },
  'assistant/delta': (s, { messageId, delta }) => s.appendDelta(messageId, delta),
  'assistant/reasoning-delta': (s, { messageId, delta }) => s.appendReasoning(messageId, delta),
  'settings/changed': (s, status) => s.setModelStatus(status),
  'settings/display-changed': (s, display) => s.setDisplaySettings(display),
  // Followed by the settings panel while it runs a scorecard; nothing to keep app-wide.
  'settings/scorecard-progressed': () => undefined,
  'approval/requested': (s, request) => s.enqueueApproval(request),
  'approval/resolved': (s, { approvalId }) => s.resolveApproval(approvalId),
  'layers/changed': (s, { layers, missingLayerIds }) => {
    const wasEmpty = s.layers.length === 0;
    s.setLayers(layers);
    if (missingLayerIds) s.setMissingLayerIds(missingLayerIds);
    // As in a desktop GIS, the first layer of an empty project sets the view — at once: an
    // animated flight would make the map fetch tiles of every zoom on the way.
    const extent = wasEmpty ? unionExtent(layers) : null;
    if (extent) s.requestFit(extent, { animate: false });
  },
  'map/fit-requested': (s, { bbox }) => s.requestFit(bbox),
  'conversations/changed': (s, list) => s.setConversations(list),
  'conversations/opened': (s, opened) => s.openConversation(opened),
  'policy/changed': (s, policy) => s.setPolicy(policy),
  'undo/changed': (s, undo) => s.setUndo(undo),
  'tool/progress': (s, progress) => s.reportProgress(progress),
  // Answered by MapView's useRendererQueries, the map's one owner; nothing to keep here.
  'renderer/query-requested': () => {},
  'plugins/changed': (s, { plugins }) => s.setPlugins(plugins),
  'annotations/changed': (s, { annotations }) => s.setAnnotations(annotations),
  'project/switched': (s, change) => s.projectSwitched(change),
  // Followed by the Run recipe dialog while it is open; the chat gets the steps as notices.
  'recipes/progressed': () => undefined,
  'memory/changed': (s, { memories }) => s.setMemories(memories),
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
    void loadPlugins(mine);
    void loadAnnotations(mine);
    try {
      const [info, snapshot, policy] = await Promise.all([
        bridge.call('app/info', {}),
        bridge.call('project/get', {}),
        bridge.call('policy/get', {}),
      ]);
      if (mine !== generation) return; // a newer load superseded this one
      store.getState().setAppInfo(info);
      store.getState().applySnapshot(snapshot);
      store.getState().applyPolicySnapshot(policy);
      // Progress of calls that ended while disconnected would linger; live calls report again soon.
      store.getState().clearProgress();
      // After the snapshot, so the list's current id agrees with the messages shown.
      const conversations = await bridge.call('conversations/list', {});
      if (mine === generation) store.getState().setConversations(conversations);
    } catch (error) {
      if (mine !== generation) return;
      store.getState().setLoadError(error instanceof Error ? error.message : String(error));
    }
  }

  /** Apart from the project: a plugin list that fails to load must not keep the project from showing. */
  async function loadPlugins(mine: number): Promise<void> {
    try {
      const { plugins } = await bridge.call('plugins/list', {});
      if (mine === generation) store.getState().setPlugins(plugins);
    } catch (error) {
      if (mine === generation) store.getState().pluginsFailed(error instanceof Error ? error.message : String(error));
    }
  }

  /** Apart from the project too: annotations are drawn over it, never needed to show it. */
  async function loadAnnotations(mine: number): Promise<void> {
    try {
      const { annotations } = await bridge.call('annotations/list', {});
      if (mine === generation) store.getState().setAnnotations(annotations);
    } catch (error) {
      console.warn('[annotations] could not be loaded:', error);
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
