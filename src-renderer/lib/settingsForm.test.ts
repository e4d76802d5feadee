import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelSettingsView } from '../../src-shared/bridge/settingsContract.js';
import { applyPreset, draftOf, formFromView, keyStateOf } from './settingsForm.js';

const view = (keys: ModelSettingsView['keys']): ModelSettingsView => ({
  saved: { provider: 'anthropic', wire: 'anthropic', url: 'https://api.anthropic.com', model: 'claude-x', thinkingBudget: 2048 },
  keys,
  keyStorage: { kind: 'file', note: '' },
  envOverride: { active: false, variables: [], summary: null },
  status: { configured: true, name: 'claude-x', help: null },
});

describe('settings form', () => {
  it('starts from the saved settings, without any key', () => {
    const form = formFromView(view([]));
    assert.deepEqual(form, {
      provider: 'anthropic',
      wire: 'anthropic',
      url: 'https://api.anthropic.com',
      model: 'claude-x',
      thinkingBudget: '2048',
      apiKey: '',
      clearKey: false,
    });
  });

  it('a preset replaces a URL still at the old default but keeps one typed by hand', () => {
    const fresh = formFromView(null);
    const ollama = applyPreset(fresh, 'ollama');
    assert.equal(ollama.url, 'http://127.0.0.1:11434/v1');
    assert.equal(ollama.wire, 'openai');
    const typed = applyPreset({ ...ollama, url: 'http://gpu-box:11434/v1' }, 'lmstudio');
    assert.equal(typed.url, 'http://gpu-box:11434/v1');
    assert.equal(applyPreset(fresh, 'anthropic').wire, 'anthropic');
    assert.equal(applyPreset({ ...fresh, wire: 'anthropic' }, 'custom').wire, 'anthropic', 'custom keeps the chosen wire');
  });

  it('checks the fields before anything is sent', () => {
    const bad = draftOf({ ...formFromView(null), wire: 'anthropic', url: 'localhost:1234', model: ' ', thinkingBudget: '500' });
    assert.ok(!bad.ok);
    assert.deepEqual(Object.keys(bad.errors).sort(), ['model', 'thinkingBudget', 'url']);
    const good = draftOf({ ...formFromView(null), model: 'gpt', apiKey: ' sk-1 ', thinkingBudget: '' });
    assert.ok(good.ok);
    assert.deepEqual(good.draft, {
      provider: 'openai',
      wire: 'openai',
      url: 'https://api.openai.com/v1',
      model: 'gpt',
      thinkingBudget: null,
      apiKey: 'sk-1',
    });
    const leftOver = draftOf({ ...formFromView(null), model: 'gpt', thinkingBudget: '4096' });
    assert.ok(leftOver.ok && leftOver.draft.thinkingBudget === null, 'a budget means nothing off the Anthropic wire');
    const anthropic = draftOf({ ...formFromView(null), wire: 'anthropic', model: 'c', thinkingBudget: '4096' });
    assert.ok(anthropic.ok && anthropic.draft.thinkingBudget === 4096);
  });

  it('a saved key counts only for the origin it was typed for', () => {
    const v = view([{ provider: 'anthropic', origin: 'https://api.anthropic.com' }]);
    const form = formFromView(v);
    assert.equal(keyStateOf(v, form), 'set');
    assert.equal(keyStateOf(v, { ...form, url: 'https://gateway.example/v1' }), 'other-address');
    assert.equal(keyStateOf(v, { ...form, provider: 'openai' }), 'none');
  });
});
