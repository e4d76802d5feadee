import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MethodName, Params, Result } from '../../../src-shared/bridge/contract.js';
import type { PluginInfo } from '../../../src-shared/bridge/pluginContract.js';
import { createAppStore } from '../appStore.js';
import { sendPluginChoice } from '../sendPluginChoice.js';
import { enabledChoiceKey, pluginChoiceKey, readOnlyChoiceKey } from './pluginsSlice.js';

function plugin(namespace: string, version: string, extra: Partial<PluginInfo> = {}): PluginInfo {
  return {
    id: `${namespace}@${version}`,
    namespace,
    version,
    name: namespace,
    description: '',
    origin: 'user',
    dir: `/home/plugins/${namespace}-${version}`,
    state: 'available',
    reasons: [],
    tools: [],
    sandboxed: null,
    checks: { state: 'passed', selfTestCases: 0, endpoints: 0 },
    enabled: true,
    ...extra,
  };
}

/** A bridge that records the calls and answers with `answer` (or throws it). */
function fakeBridge(answer: (method: MethodName, params: unknown) => PluginInfo[] | Error) {
  const calls: { method: MethodName; params: unknown }[] = [];
  let release: () => void = () => {};
  const gate = { held: false };
  return {
    calls,
    hold() {
      gate.held = true;
      return () => release();
    },
    bridge: {
      async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
        calls.push({ method, params });
        if (gate.held) await new Promise<void>((r) => (release = r));
        const out = answer(method, params);
        if (out instanceof Error) throw out;
        return { plugins: out } as Result<M>;
      },
    },
  };
}

describe('plugins slice: the person’s choices', () => {
  it('keys a choice by its control', () => {
    assert.equal(pluginChoiceKey({ kind: 'enabled', namespace: 'stamp', enabled: false }), enabledChoiceKey('stamp'));
    assert.equal(
      pluginChoiceKey({ kind: 'read-only', toolId: 'gis.lookup', version: '1.0.0', readOnly: true }),
      readOnlyChoiceKey('gis.lookup', '1.0.0'),
    );
    assert.notEqual(readOnlyChoiceKey('gis.lookup', '1.0.0'), readOnlyChoiceKey('gis.lookup', '2.0.0'));
  });

  it('switching a plugin off calls plugins/set-enabled and shows the list main answers', async () => {
    const store = createAppStore();
    store.getState().setPlugins([plugin('stamp', '0.1.0')]);
    const fake = fakeBridge(() => [plugin('stamp', '0.1.0', { enabled: false })]);
    const release = fake.hold();
    const sent = sendPluginChoice(fake.bridge, store, { kind: 'enabled', namespace: 'stamp', enabled: false });
    assert.equal(store.getState().pluginChoicePending, 'enabled:stamp', 'its switch waits for main');
    assert.equal(
      await sendPluginChoice(fake.bridge, store, { kind: 'enabled', namespace: 'hello', enabled: false }),
      false,
      'one choice at a time',
    );
    release();
    assert.equal(await sent, true);
    assert.deepEqual(fake.calls, [{ method: 'plugins/set-enabled', params: { namespace: 'stamp', enabled: false } }]);
    assert.equal(store.getState().pluginChoicePending, null);
    assert.equal(store.getState().plugins[0]!.enabled, false);
  });

  it('marking an MCP tool read-only calls plugins/mark-read-only for that version', async () => {
    const store = createAppStore();
    const marked = plugin('gis', '2.0.0', {
      tools: [
        { id: 'gis.lookup', title: 'Look up', safety: 'write', riskLevel: 'low', network: false, executor: 'mcp', readOnlyMark: true },
      ],
    });
    const fake = fakeBridge(() => [marked]);
    assert.equal(
      await sendPluginChoice(fake.bridge, store, { kind: 'read-only', toolId: 'gis.lookup', version: '2.0.0', readOnly: true }),
      true,
    );
    assert.deepEqual(fake.calls, [
      { method: 'plugins/mark-read-only', params: { toolId: 'gis.lookup', version: '2.0.0', readOnly: true } },
    ]);
    assert.equal(store.getState().plugins[0]!.tools[0]!.readOnlyMark, true);
    assert.equal(store.getState().pluginsLoaded, true);
  });

  it('a refused choice says why, keeps the list, and frees the control', async () => {
    const store = createAppStore();
    store.getState().setPlugins([plugin('stamp', '0.1.0')]);
    const fake = fakeBridge(() => new Error('no such plugin'));
    assert.equal(await sendPluginChoice(fake.bridge, store, { kind: 'enabled', namespace: 'stamp', enabled: false }), false);
    assert.equal(store.getState().pluginChoiceError, 'no such plugin');
    assert.equal(store.getState().pluginChoicePending, null);
    assert.equal(store.getState().plugins[0]!.enabled, true);
    const ok = fakeBridge(() => [plugin('stamp', '0.1.0', { enabled: false })]);
    await sendPluginChoice(ok.bridge, store, { kind: 'enabled', namespace: 'stamp', enabled: false });
    assert.equal(store.getState().pluginChoiceError, null, 'the next choice clears the message');
  });
});
