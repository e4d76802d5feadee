import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readModelConfig } from './modelConfig.js';

describe('model config from the environment', () => {
  test('URL and model are enough; a key is optional', () => {
    assert.deepEqual(readModelConfig({ MAPWRIGHT_MODEL_URL: 'http://127.0.0.1:11434/v1', MAPWRIGHT_MODEL: 'qwen2.5' }), {
      ok: true,
      config: { wire: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5', apiKey: null },
    });
    const keyed = readModelConfig({
      MAPWRIGHT_MODEL_URL: 'https://api.openai.com/v1',
      MAPWRIGHT_MODEL: 'gpt-4o',
      MAPWRIGHT_API_KEY: ' sk-1 ',
    });
    assert.ok(keyed.ok);
    assert.equal(keyed.config.apiKey, 'sk-1');
  });

  test('nothing set: short help with a local Ollama example', () => {
    const result = readModelConfig({});
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.ok(result.help.split('\n').length <= 3);
    assert.match(result.help, /open Settings/);
    assert.match(result.help, /MAPWRIGHT_MODEL_URL=http:\/\/127\.0\.0\.1:11434\/v1 MAPWRIGHT_MODEL=qwen2\.5/);
  });

  test('half set, blank, or not a URL: the help names what is wrong', () => {
    const noModel = readModelConfig({ MAPWRIGHT_MODEL_URL: 'http://x/v1', MAPWRIGHT_MODEL: '  ' });
    assert.ok(!noModel.ok && noModel.help.startsWith('MAPWRIGHT_MODEL is not set.'));
    const badUrl = readModelConfig({ MAPWRIGHT_MODEL_URL: 'localhost:1234', MAPWRIGHT_MODEL: 'm' });
    assert.ok(!badUrl.ok && /must start with http/.test(badUrl.help));
    const badProvider = readModelConfig({ MAPWRIGHT_MODEL_URL: 'http://x/v1', MAPWRIGHT_MODEL: 'm', MAPWRIGHT_MODEL_PROVIDER: 'gemini' });
    assert.ok(!badProvider.ok && /must be openai or anthropic/.test(badProvider.help));
  });

  test('MAPWRIGHT_MODEL_PROVIDER=anthropic picks the Messages wire', () => {
    const result = readModelConfig({
      MAPWRIGHT_MODEL_URL: 'https://api.anthropic.com',
      MAPWRIGHT_MODEL: 'claude',
      MAPWRIGHT_MODEL_PROVIDER: 'Anthropic',
    });
    assert.ok(result.ok && result.config.wire === 'anthropic');
  });
});
