import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventName, EventPayload, MethodName, Result } from '../../src-shared/bridge/contract.js';
import { EVENT_NAMES } from '../../src-shared/bridge/names.js';
import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import type { ConnectionListener, ConnectionState, RendererBridge } from '../bridge/bridgeTypes.js';
import { createAppStore } from './appStore.js';
import { syncStoreWithBridge } from './bridgeSync.js';

/** A bridge whose answers and events the test controls. */
function fakeBridge(snapshot: () => Result<'project/get'>) {
  const listeners = new Map<string, ((p: unknown) => void)[]>();
  const connection: ConnectionListener[] = [];
  const calls: string[] = [];
  const info: Result<'app/info'> = {
    version: '0',
    host: 'web',
    dataBase: '/',
    dataQuery: '?token=t',
    model: { configured: false, name: null, help: 'Set a model' },
  };
  const bridge: RendererBridge = {
    transport: 'websocket',
    async call<M extends MethodName>(method: M): Promise<Result<M>> {
      calls.push(method);
      if (method === 'policy/get')
        return { policy: { mode: 'plan', askForReads: true, grants: [] }, undo: { undo: null, revertTurn: null } } as Result<M>;
      if (method === 'conversations/list') return { conversations: [], currentId: snapshot().conversationId } as Result<M>;
      if (method === 'plugins/list') return { plugins: [plugin('hello', '1.0.0')] } as Result<M>;
      return (method === 'app/info' ? info : snapshot()) as Result<M>;
    },
    on<E extends EventName>(name: E, listener: (p: EventPayload<E>) => void) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener as (p: unknown) => void]);
      return () => {};
    },
    connectionState: () => 'open' as ConnectionState,
    onConnection(listener) {
      connection.push(listener);
      return () => {};
    },
    dispose() {},
  };
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => listeners.get(name)?.forEach((l) => l(payload));
  const reconnect = () => connection.forEach((l) => l('open', { reconnected: true }));
  return { bridge, emit, reconnect, calls, listeners };
}

function snapshot(text: string): Result<'project/get'> {
  return {
    project: { id: 'p', name: 'Demo', path: '/tmp/p.mapwright' },
    layers: [],
    conversationId: 'c1',
    messages: [{ id: 'm1', conversationId: 'c1', seq: 1, role: 'user', text, createdAt: 'x' }],
    run: { runId: null, status: 'idle' },
    pendingApprovals: [],
    view: null,
    missingLayerIds: [],
  };
}

function plugin(namespace: string, version: string): PluginInfo {
  return {
    id: `${namespace}@${version}`,
    namespace,
    version,
    name: namespace,
    description: '',
    origin: 'built-in',
    dir: `/plugins/${namespace}`,
    state: 'available',
    reasons: [],
    tools: [],
    sandboxed: null,
    checks: { state: 'passed', selfTestCases: 0, endpoints: 0 },
    enabled: true,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('syncStoreWithBridge', () => {
  it('loads app info and the project, then follows events', async () => {
    const store = createAppStore();
    const fake = fakeBridge(() => snapshot('first'));
    syncStoreWithBridge(fake.bridge, store);
    await settle();
    assert.equal(store.getState().appInfo?.dataQuery, '?token=t');
    assert.equal(store.getState().project?.name, 'Demo');
    assert.equal(store.getState().messagesById['m1']?.text, 'first');

    fake.emit('run/changed', { runId: 'r1', status: 'running' });
    fake.emit('assistant/delta', { messageId: 'm2', delta: 'Hi' });
    fake.emit('map/fit-requested', { bbox: [0, 0, 1, 1] });
    assert.equal(store.getState().run.status, 'running');
    assert.equal(store.getState().messagesById['m2']?.text, 'Hi');
    assert.equal(store.getState().messagesById['m2']?.conversationId, 'c1');
    assert.deepEqual(store.getState().fitRequest?.bbox, [0, 0, 1, 1]);
  });

  it('fits the view to the first layer of an empty project, not to later ones', async () => {
    const store = createAppStore();
    const fake = fakeBridge(() => snapshot('x'));
    syncStoreWithBridge(fake.bridge, store);
    await settle();
    const layer = (id: string, extent4326: [number, number, number, number]) => ({ id, order: 0, info: { extent4326 } }) as never;
    fake.emit('layers/changed', { layers: [layer('a', [0, 0, 1, 1])] });
    assert.deepEqual(store.getState().fitRequest, { seq: 1, bbox: [0, 0, 1, 1], animate: false }, 'set at once, not flown to');
    fake.emit('layers/changed', { layers: [layer('a', [0, 0, 1, 1]), layer('b', [5, 5, 6, 6])] });
    assert.equal(store.getState().fitRequest?.seq, 1);
  });

  it('subscribes to every contract event', () => {
    const fake = fakeBridge(() => snapshot('x'));
    syncStoreWithBridge(fake.bridge, createAppStore());
    assert.equal(fake.listeners.size, EVENT_NAMES.length);
  });

  it('loads the approval policy and follows progress until the card settles', async () => {
    const store = createAppStore();
    const fake = fakeBridge(() => snapshot('x'));
    syncStoreWithBridge(fake.bridge, store);
    await settle();
    assert.equal(store.getState().policy.mode, 'plan');
    assert.equal(store.getState().policyLoaded, true);
    fake.emit('tool/progress', { callId: 'call-1', fraction: 0.3, message: 'resampling' });
    assert.equal(store.getState().progressByCallId['call-1']?.fraction, 0.3);
    const card = (status: 'running' | 'ok') => ({
      id: 't1',
      conversationId: 'c1',
      seq: 2,
      role: 'tool' as const,
      text: '',
      createdAt: 'x',
      tool: {
        callId: 'call-1',
        toolId: 'processing.run',
        name: 'processing_run',
        title: 'Run',
        args: {},
        summary: '',
        status,
        durationMs: null,
        result: null,
      },
    });
    fake.emit('message/upserted', card('running'));
    assert.ok(store.getState().progressByCallId['call-1']);
    fake.emit('message/upserted', card('ok'));
    assert.equal(store.getState().progressByCallId['call-1'], undefined);
    fake.emit('undo/changed', { undo: { summary: 'resample on elev', toolId: 'processing.run' }, revertTurn: { changes: 1 } });
    assert.equal(store.getState().undo.undo?.summary, 'resample on elev');
  });

  it('loads the plugin list and replaces it when main says the plugins changed', async () => {
    const store = createAppStore();
    const fake = fakeBridge(() => snapshot('x'));
    syncStoreWithBridge(fake.bridge, store);
    assert.equal(store.getState().pluginsLoaded, false);
    await settle();
    assert.deepEqual(
      store.getState().plugins.map((p) => p.id),
      ['hello@1.0.0'],
    );
    fake.emit('plugins/changed', { plugins: [plugin('hello', '1.0.0'), plugin('stamp', '0.2.0')] });
    assert.deepEqual(
      store.getState().plugins.map((p) => p.id),
      ['hello@1.0.0', 'stamp@0.2.0'],
    );
  });

  it('a plugin list that fails to load leaves the project loaded', async () => {
    const store = createAppStore();
    const fake = fakeBridge(() => snapshot('x'));
    const call = fake.bridge.call.bind(fake.bridge);
    fake.bridge.call = (async (method: MethodName, params: never) => {
      if (method === 'plugins/list') throw new Error('no such method');
      return call(method, params);
    }) as RendererBridge['call'];
    syncStoreWithBridge(fake.bridge, store);
    await settle();
    assert.equal(store.getState().project?.name, 'Demo');
    assert.equal(store.getState().loadError, null);
    assert.equal(store.getState().pluginsError, 'no such method');
  });

  it('re-fetches state after a reconnect', async () => {
    const store = createAppStore();
    let text = 'before';
    const fake = fakeBridge(() => snapshot(text));
    syncStoreWithBridge(fake.bridge, store);
    await settle();
    text = 'after';
    fake.reconnect();
    await settle();
    assert.equal(store.getState().messagesById['m1']?.text, 'after');
    assert.equal(fake.calls.filter((c) => c === 'project/get').length, 2);
  });
});
