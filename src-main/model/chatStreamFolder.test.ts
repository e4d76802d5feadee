import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createChatStreamFolder } from './chatStreamFolder.js';
import { ModelError } from './modelClient.js';

/** SSE text of the given chunk objects, the way servers frame them. */
const sse = (...events: (object | string)[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
const delta = (value: object, finish: string | null = null) => ({ choices: [{ index: 0, delta: value, finish_reason: finish }] });
const call = (fields: object) => delta({ tool_calls: [fields] });

function fold(text: string, sliceSize = 0) {
  const deltas: string[] = [];
  const folder = createChatStreamFolder((d) => deltas.push(d));
  if (sliceSize === 0) folder.feed(text);
  else for (let i = 0; i < text.length; i += sliceSize) folder.feed(text.slice(i, i + sliceSize));
  return { turn: folder.end(), deltas, folder };
}

describe('chat stream folder', () => {
  test('survives being fed one character at a time, CRLF framing included', () => {
    const body = sse(
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'Hé' }),
      delta({ content: 'llo' }),
      delta({}, 'stop'),
      '[DONE]',
    );
    for (const text of [body, body.replace(/\n/g, '\r\n')]) {
      const { turn, deltas } = fold(text, 1);
      assert.deepEqual(deltas, ['Hé', 'llo']);
      assert.equal(turn.text, 'Héllo');
      assert.equal(turn.stopReason, 'stop');
    }
  });

  test('tool calls without an index: a new id starts a call, fragments continue it', () => {
    const { turn } = fold(
      sse(
        call({ id: 'a', function: { name: 'one', arguments: '{"x"' } }),
        call({ function: { arguments: ':1}' } }),
        call({ id: 'b', function: { name: 'two', arguments: '' } }),
        delta({}, 'tool_calls'),
      ),
    );
    assert.deepEqual(turn.toolCalls, [
      { id: 'a', name: 'one', arguments: '{"x":1}' },
      { id: 'b', name: 'two', arguments: '{}' },
    ]);
  });

  test('interleaved parallel fragments are put back together by index; repeated ids and names are not doubled', () => {
    const { turn } = fold(
      sse(
        call({ index: 0, id: 'a', function: { name: 'f', arguments: '{"n":' } }),
        call({ index: 1, id: 'b', function: { name: 'g', arguments: '{"m":' } }),
        call({ index: 0, id: 'a', function: { name: 'f', arguments: '1}' } }),
        call({ index: 1, function: { arguments: '2}' } }),
        delta({}, 'tool_calls'),
      ),
    );
    assert.deepEqual(turn.toolCalls, [
      { id: 'a', name: 'f', arguments: '{"n":1}' },
      { id: 'b', name: 'g', arguments: '{"m":2}' },
    ]);
  });

  test('a call without an id gets a generated one', () => {
    const { turn } = fold(sse(call({ index: 0, function: { name: 'f', arguments: '{}' } }), delta({}, 'tool_calls'), '[DONE]'));
    assert.match(turn.toolCalls[0]?.id ?? '', /^call_[0-9a-f]{24}$/);
  });

  test('[DONE] without a finish_reason is still a turn; its stop reason is unknown', () => {
    const { turn } = fold(sse(delta({ content: 'hi' }), '[DONE]'));
    assert.equal(turn.text, 'hi');
    assert.equal(turn.stopReason, null);
  });

  test('neither [DONE] nor finish_reason: ended early', () => {
    assert.throws(
      () => fold(sse(delta({ content: 'hi' }))),
      (e: unknown) => e instanceof ModelError && /ended early/.test(e.message),
    );
  });

  test('a cut inside a JSON event is an early end, not a parse crash', () => {
    const text = sse(delta({ content: 'hi' }), delta({}, 'stop')).slice(0, -20);
    assert.throws(
      () => fold(text),
      (e: unknown) => e instanceof ModelError && /ended early/.test(e.message),
    );
  });

  test('an error object inside the stream becomes a ModelError with its message and code', () => {
    const text = sse(delta({ content: 'par' }), { error: { message: 'Provider returned error', code: 502 } });
    assert.throws(
      () => fold(text),
      (e: unknown) => e instanceof ModelError && e.message === 'Provider returned error' && e.status === 502,
    );
  });

  test('a plain-text `event: error` becomes a ModelError', () => {
    const text = `${sse(delta({ content: 'x' }))}event: error\ndata: upstream timed out\n\n`;
    assert.throws(
      () => fold(text),
      (e: unknown) => e instanceof ModelError && e.message === 'upstream timed out',
    );
  });

  test('usage sent on every chunk: the last one wins; comments and keep-alives are ignored', () => {
    const text = `: keep-alive\n\n${sse(
      { ...delta({ content: 'a' }), usage: { prompt_tokens: 5, completion_tokens: 1 } },
      { ...delta({ content: 'b' }, 'stop'), usage: { prompt_tokens: 5, completion_tokens: 2 } },
    )}`;
    const { turn } = fold(text);
    assert.equal(turn.text, 'ab');
    assert.deepEqual(turn.usage, { inputTokens: 5, outputTokens: 2 });
  });

  test('content given as an array of parts is read as text', () => {
    const { turn } = fold(sse(delta({ content: [{ type: 'text', text: 'part' }] }, 'stop')));
    assert.equal(turn.text, 'part');
  });

  test('events after [DONE] are ignored and `done` tells the reader to stop', () => {
    const deltas: string[] = [];
    const folder = createChatStreamFolder((d) => deltas.push(d));
    folder.feed(sse(delta({ content: 'a' }, 'stop'), '[DONE]', delta({ content: 'late' })));
    assert.equal(folder.done, true);
    assert.equal(folder.end().text, 'a');
    assert.deepEqual(deltas, ['a']);
  });
});
