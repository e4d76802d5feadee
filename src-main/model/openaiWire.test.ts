import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildChatRequestBody, chatCompletionsUrl } from './openaiWire.js';

describe('OpenAI wire request', () => {
  test('the endpoint URL is accepted with or without a trailing slash, or in full', () => {
    for (const base of [
      'http://127.0.0.1:1234/v1',
      'http://127.0.0.1:1234/v1/',
      'http://127.0.0.1:1234/v1//',
      ' http://127.0.0.1:1234/v1 ',
      'http://127.0.0.1:1234/v1/chat/completions',
      'http://127.0.0.1:1234/v1/chat/completions/',
    ]) {
      assert.equal(chatCompletionsUrl(base), 'http://127.0.0.1:1234/v1/chat/completions', base);
    }
  });

  test('an assistant turn with text and calls keeps its text', () => {
    const body = buildChatRequestBody('m', {
      messages: [{ role: 'assistant', content: 'Loading.', toolCalls: [{ id: 'c', name: 'n', arguments: '{}' }] }],
      tools: [],
    });
    assert.deepEqual(body.messages[0], {
      role: 'assistant',
      content: 'Loading.',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'n', arguments: '{}' } }],
    });
  });

  test('an assistant turn with an empty call list is plain text (no empty tool_calls array)', () => {
    const body = buildChatRequestBody('m', { messages: [{ role: 'assistant', content: '', toolCalls: [] }], tools: [] });
    assert.deepEqual(body.messages[0], { role: 'assistant', content: '' });
    assert.equal('tools' in body, false);
  });
});
