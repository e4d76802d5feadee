/**
 * Model settings through the bridge methods of the real services (scripted model server,
 * a fresh data folder each): saving swaps the model for the next run, keys never come back
 * and stay with their origin, the connection test reports what it detected, reasoning is
 * pushed live and never saved, and a cut stream saves no half turn.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import type { ConnectionReport, ModelSettingsView } from '../../src-shared/bridge/settingsContract.js';
import { startApp } from '../composition/testApp.js';

type App = Awaited<ReturnType<typeof startApp>>;

describe('model settings through the services', () => {
  let model: ScriptedModelServer;
  let other: ScriptedModelServer;
  const apps: App[] = [];
  before(async () => {
    model = await startScriptedModelServer();
    other = await startScriptedModelServer();
  });
  beforeEach(() => {
    model.reset();
    other.reset();
  });
  after(async () => {
    for (const app of apps) {
      await app.services.close();
      rmSync(app.home, { recursive: true, force: true });
    }
    await model.close();
    await other.close();
  });
  const open = async () => {
    const app = await startApp(null);
    apps.push(app);
    return app;
  };
  const call = <T>(app: App, method: string, params: object = {}) => app.services.invoke(method, params) as Promise<T>;
  const messagesOf = async (app: App) =>
    (await call<{ messages: { role: string; text: string; toolCalls?: unknown[]; level?: string }[] }>(app, 'project/get')).messages;

  it('no model: app/info says to open Settings; nothing saved, keys in a file', async () => {
    const app = await open();
    const info = await call<{ model: { configured: boolean; help: string } }>(app, 'app/info');
    assert.equal(info.model.configured, false);
    assert.match(info.model.help, /open Settings/);
    const view = await call<ModelSettingsView>(app, 'settings/get');
    assert.equal(view.saved, null);
    assert.deepEqual(view.keys, []);
    assert.equal(view.keyStorage.kind, 'file');
    assert.match(view.keyStorage.note, /only your user account can read/);
    assert.equal(view.envOverride.active, false);
  });

  it('save → the next run uses it; the key never comes back, lives in a 0600 file, and in no database', async () => {
    const app = await open();
    const view = await call<ModelSettingsView>(app, 'settings/save', {
      provider: 'custom',
      wire: 'anthropic',
      url: model.url,
      model: 'claude-scripted',
      thinkingBudget: 2048,
      apiKey: 'sk-ant-secret-1',
    });
    assert.ok(!JSON.stringify(view).includes('sk-ant-secret-1'), 'the key is not in the answer');
    assert.deepEqual(view.keys, [{ provider: 'custom', origin: new URL(model.url).origin }]);
    assert.deepEqual(view.status, { configured: true, name: 'claude-scripted', help: null });
    assert.ok(app.events.some((e) => e.name === 'settings/changed' && (e.payload as { configured: boolean }).configured));
    const keyFile = join(app.home, 'secrets', 'model-keys.json');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(statSync(join(app.home, 'secrets')).mode & 0o777, 0o700);

    const thinking = 'I should list the layers before answering.';
    model.script([
      {
        reasoning: thinking,
        signature: 'sig-abc',
        text: 'Let me look.',
        toolCalls: [{ name: 'inspect_list_layers', arguments: {} }],
        chunkSize: 6,
      },
      { text: 'There are no layers yet.' },
    ]);
    await call(app, 'chat/send', { text: 'what is loaded?' });
    await app.runFinished(1);
    assert.deepEqual(model.requestWires, ['anthropic', 'anthropic']);
    assert.equal(model.requestHeaders[0]?.['x-api-key'], 'sk-ant-secret-1');
    assert.deepEqual((model.requests[0] as unknown as { thinking: unknown }).thinking, { type: 'enabled', budget_tokens: 2048 });
    // Same run: the signed thinking block goes back first, verbatim.
    const second = model.requests[1] as unknown as {
      messages: { role: string; content: { type: string; thinking?: string; signature?: string }[] }[];
    };
    const assistant = second.messages.find((m) => m.role === 'assistant')!;
    assert.deepEqual(assistant.content[0], { type: 'thinking', thinking, signature: 'sig-abc' });
    assert.equal(assistant.content[1]?.type, 'text');
    assert.equal(assistant.content[2]?.type, 'tool_use');

    const reasoning = app.events.filter((e) => e.name === 'assistant/reasoning-delta').map((e) => (e.payload as { delta: string }).delta);
    assert.equal(reasoning.join(''), thinking, 'reasoning pushed live');
    const messages = await messagesOf(app);
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(messages[1]!.text, 'Let me look.', 'text streamed before the call is part of the turn');
    // Never saved: not in the messages, not in any file of the data folder.
    assert.ok(!JSON.stringify(messages).includes('list the layers before'));
    await app.services.close();
    apps.splice(apps.indexOf(app), 1);
    for (const file of [join(app.home, 'projects', 'untitled.mapwright'), join(app.home, 'mapwright.sqlite')]) {
      for (const path of [file, `${file}-wal`]) {
        if (!existsSync(path)) continue;
        const bytes = readFileSync(path).toString('latin1');
        assert.ok(!bytes.includes('sk-ant-secret-1'), `no key in ${path}`);
        assert.ok(!bytes.includes('list the layers before'), `no reasoning in ${path}`);
      }
    }
    rmSync(app.home, { recursive: true, force: true });
  });

  it('test connection: detects refused tools and plain replies, lists models, and reports outages as outages', async () => {
    const app = await open();
    model.behave({ refuseTools: true, ignoreStream: true });
    model.setModels(['qwen3:8b', 'gemma3:4b']);
    model.script([{ text: 'OK' }]);
    const draft = { provider: 'ollama', wire: 'openai', url: model.url, model: 'gemma3:4b', thinkingBudget: null };
    const report = await call<ConnectionReport>(app, 'settings/test-connection', draft);
    assert.equal(report.ok, true, report.message);
    assert.deepEqual(report.detected, { tools: 'json', streaming: 'no', reasoning: 'none' });
    assert.match(report.notes.join('\n'), /Native tool calls refused/);
    assert.deepEqual(report.models, ['gemma3:4b', 'qwen3:8b']);

    model.reset();
    model.behave({ requireKey: 'right' });
    const refused = await call<ConnectionReport>(app, 'settings/test-connection', { ...draft, apiKey: 'wrong' });
    assert.equal(refused.ok, false);
    assert.equal(refused.status, 401);
    assert.match(refused.message, /refused the key \(HTTP 401\)/);
    assert.equal(refused.detected.tools, 'unknown', 'a 401 disables nothing');
    assert.equal(model.requests.length, 1, 'a 401 is not retried');
  });

  it('a saved key is sent only to the origin it was typed for, and dropped when the address moves', async () => {
    const app = await open();
    await call(app, 'settings/save', {
      provider: 'openai',
      wire: 'openai',
      url: model.url,
      model: 'm',
      thinkingBudget: null,
      apiKey: 'sk-openai-2',
    });
    await call(app, 'settings/list-models', { provider: 'openai', wire: 'openai', url: model.url });
    assert.equal(model.requestHeaders.length, 0, 'model lists are not recorded as completions');
    model.script([{ text: 'OK' }]);
    await call(app, 'settings/test-connection', { provider: 'openai', wire: 'openai', url: model.url, model: 'm', thinkingBudget: null });
    assert.equal(model.requestHeaders[0]?.authorization, 'Bearer sk-openai-2');

    other.script([{ text: 'OK' }]);
    await call(app, 'settings/test-connection', { provider: 'openai', wire: 'openai', url: other.url, model: 'm', thinkingBudget: null });
    assert.equal(other.requestHeaders[0]?.authorization, undefined, 'not sent to another address');

    const moved = await call<ModelSettingsView>(app, 'settings/save', {
      provider: 'openai',
      wire: 'openai',
      url: other.url,
      model: 'm',
      thinkingBudget: null,
    });
    assert.deepEqual(moved.keys, []);
    assert.equal(moved.status.configured, false, 'OpenAI needs a key');
    assert.match(moved.status.help ?? '', /needs an API key/);
  });

  it('a stream cut mid-way: a clear error, the text shown kept, the half-made call neither saved nor run', async () => {
    const app = await open();
    await call(app, 'settings/save', { provider: 'custom', wire: 'openai', url: model.url, model: 'm', thinkingBudget: null });
    model.script([
      {
        text: 'Listing the layers now.',
        toolCalls: [{ name: 'inspect_list_layers', arguments: { limit: 5 } }],
        chunkSize: 4,
        cutAfterChunks: 9,
      },
    ]);
    await call(app, 'chat/send', { text: 'list' });
    await app.runFinished(1);
    const messages = await messagesOf(app);
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'notice'],
    );
    assert.ok('Listing the layers now.'.startsWith(messages[1]!.text) && messages[1]!.text.length > 0);
    assert.equal(messages[1]!.toolCalls, undefined);
    assert.equal(messages[2]!.level, 'error');
    assert.match(messages[2]!.text, /stream ended early/);
    assert.equal(model.requests.length, 1, 'not retried once text was shown');
  });

  it('the environment overrides the saved settings, and the panel says so', async () => {
    const app = await startApp(model);
    apps.push(app);
    await call(app, 'settings/save', { provider: 'ollama', wire: 'openai', url: other.url, model: 'saved-model', thinkingBudget: null });
    const view = await call<ModelSettingsView>(app, 'settings/get');
    assert.equal(view.envOverride.active, true);
    assert.deepEqual(view.envOverride.variables, ['MAPWRIGHT_MODEL_URL', 'MAPWRIGHT_MODEL']);
    assert.equal(view.status.name, 'scripted');
    model.script([{ text: 'from the environment' }]);
    await call(app, 'chat/send', { text: 'hi' });
    await app.runFinished(1);
    assert.equal(model.requests.length, 1);
    assert.equal(other.requests.length, 0);
    delete process.env.MAPWRIGHT_MODEL_URL;
    delete process.env.MAPWRIGHT_MODEL;
  });
});
