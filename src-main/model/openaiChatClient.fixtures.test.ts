/**
 * Replays real recorded provider responses (see /work/shared/fixtures/model-streams/SOURCES.md)
 * byte for byte through a local HTTP server and checks the turns the client folds from them.
 * Expected values are the facts read from the files, noted beside each case, plus a few
 * derived in the test by a plain line split, independent of the client's parser.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ModelError, type ModelTurn } from './modelClient.js';
import { createOpenAiChatClient } from './openaiChatClient.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/model-streams');
const present = existsSync(FIXTURES);
if (!present) console.log(`# skipping fixture replays: ${FIXTURES} is absent`);

/**
 * Serves `/<file>/<N>/v1/chat/completions` from the fixture folder. N > 0 writes the body
 * N bytes at a time with a tick between, so events and UTF-8 characters split across reads.
 * Error fixtures are answered with the status in their name.
 */
function startFixtureServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const [, name = '', slices = '0'] = (req.url ?? '/').split('/');
    const file = decodeURIComponent(name);
    const bytes = readFileSync(join(FIXTURES, file));
    const status = Number(/-error-(\d{3})-/.exec(file)?.[1] ?? 200);
    const type = file.endsWith('.sse') ? 'text/event-stream' : 'application/json';
    req.resume();
    res.writeHead(status, { 'Content-Type': type });
    const slice = Number(slices);
    if (!slice) {
      res.end(bytes);
      return;
    }
    let offset = 0;
    const next = () => {
      if (offset >= bytes.length) return res.end();
      res.write(bytes.subarray(offset, offset + slice));
      offset += slice;
      setImmediate(next);
    };
    next();
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

describe('OpenAI chat client: recorded provider streams', { skip: !present && 'fixtures absent' }, () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startFixtureServer();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  async function replay(file: string, slices = 0): Promise<{ turn: ModelTurn; deltas: string[] }> {
    const client = createOpenAiChatClient({
      // The full `…/chat/completions` form of the URL is accepted as well as the base.
      baseUrl: `${base}/${encodeURIComponent(file)}/${slices}/v1${slices ? '/chat/completions' : '/'}`,
      model: 'gpt-4o-mini',
      apiKey: null,
    });
    const deltas: string[] = [];
    const turn = await client.streamTurn(
      { messages: [{ role: 'user', content: 'hi' }], tools: [] },
      { signal: new AbortController().signal, onTextDelta: (d) => deltas.push(d) },
    );
    return { turn, deltas };
  }

  /** Non-empty `delta.content` values, by a line split that knows nothing of SSE parsers. */
  function contentDeltasOf(file: string): string[] {
    return readFileSync(join(FIXTURES, file), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { choices?: { delta?: { content?: string | null } }[] })
      .map((chunk) => chunk.choices?.[0]?.delta?.content ?? '')
      .filter((content) => content !== '');
  }

  for (const slices of [0, 5]) {
    const how = slices ? ' (served 5 bytes at a time)' : '';

    test(`text stream${how}`, async () => {
      const { turn, deltas } = await replay('openai-chat-stream-text.sse', slices);
      // File: content "Olá" then "!", finish_reason "stop", usage 20 prompt / 2 completion.
      assert.deepEqual(deltas, contentDeltasOf('openai-chat-stream-text.sse'));
      assert.equal(turn.text, 'Olá!');
      assert.deepEqual(turn.toolCalls, []);
      assert.equal(turn.stopReason, 'stop');
      assert.deepEqual(turn.usage, { inputTokens: 20, outputTokens: 2 });
    });

    test(`single tool call, arguments in 8 fragments${how}`, async () => {
      const { turn, deltas } = await replay('openai-chat-stream-tool-call-single.sse', slices);
      // File: call_qLFv8oQOs68qRuEVmG8TuEJp "weather"; the fragments join to {"location":"Florence,Italy"}.
      assert.deepEqual(deltas, []);
      assert.equal(turn.text, '');
      assert.equal(turn.toolCalls.length, 1);
      assert.equal(turn.toolCalls[0]?.id, 'call_qLFv8oQOs68qRuEVmG8TuEJp');
      assert.equal(turn.toolCalls[0]?.name, 'weather');
      assert.deepEqual(JSON.parse(turn.toolCalls[0]?.arguments ?? ''), { location: 'Florence,Italy' });
      assert.equal(turn.stopReason, 'tool_calls');
      assert.deepEqual(turn.usage, { inputTokens: 61, outputTokens: 16 });
    });

    test(`two parallel tool calls${how}`, async () => {
      const { turn } = await replay('openai-chat-stream-tool-calls-parallel.sse', slices);
      // File: index 0 "add", index 1 "multiply", both {"a": 2, "b": 3}; usage 106 / 50.
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
        [
          ['call_cclGbjTQkZDEnnHrRiU0n7NO', 'add', { a: 2, b: 3 }],
          ['call_Nob2SzTcxIjro1HvSBPQS6XG', 'multiply', { a: 2, b: 3 }],
        ],
      );
      assert.equal(turn.stopReason, 'tool_calls');
      assert.deepEqual(turn.usage, { inputTokens: 106, outputTokens: 50 });
    });

    test(`gateway stream whose first tool call has index 1${how}`, async () => {
      const { turn, deltas } = await replay('openai-compat-gateway-claude-stream-tool-call-index1.sse', slices);
      // File: text "Reading" + " it.", then read_file (toolu_sanitized) at index 1 with
      // {"path": "a.txt"}; no usage chunk; ends with `data: [DONE]` and no trailing newline.
      assert.deepEqual(deltas, ['Reading', ' it.']);
      assert.equal(turn.text, 'Reading it.');
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
        [['toolu_sanitized', 'read_file', { path: 'a.txt' }]],
      );
      assert.equal(turn.stopReason, 'tool_calls');
      assert.equal(turn.usage, null);
    });
  }

  test('DeepSeek stream: reasoning ignored, finish without [DONE] is a whole turn', async () => {
    const { turn, deltas } = await replay('deepseek-chat-stream-reasoning-content-tool-call.sse');
    // File: no [DONE] (see SOURCES note 4); weather {"location": "San Francisco"}; usage 339 / 83
    // in the finish chunk itself.
    assert.deepEqual(deltas, []);
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [['call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', 'weather', { location: 'San Francisco' }]],
    );
    assert.equal(turn.stopReason, 'tool_calls');
    assert.deepEqual(turn.usage, { inputTokens: 339, outputTokens: 83 });
  });

  test('OpenRouter stream: comment lines, empty argument chunks, finish sent twice', async () => {
    const { turn } = await replay('openrouter-chat-stream-reasoning-tool-call.sse');
    // File: weather (toolu_bdrk_01N8hD5cYDw4WfvnjKXAkA2W) {"location": "Florence, Italy"}; usage 607 / 143.
    assert.equal(turn.text, '');
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [['toolu_bdrk_01N8hD5cYDw4WfvnjKXAkA2W', 'weather', { location: 'Florence, Italy' }]],
    );
    assert.equal(turn.stopReason, 'tool_calls');
    assert.deepEqual(turn.usage, { inputTokens: 607, outputTokens: 143 });
  });

  test('a partial recording (no finish, no [DONE]) is an early end', async () => {
    // File: only the first 11 events of an ik_llama.cpp stream were pasted (SOURCES note 6).
    await assert.rejects(replay('llamacpp-ik-chat-stream-think-in-content.partial.sse'), (error: unknown) => {
      assert.ok(error instanceof ModelError);
      assert.match(error.message, /stream ended early/);
      assert.equal(error.aborted, false);
      return true;
    });
  });

  test('non-streamed completion with one tool call', async () => {
    const { turn, deltas } = await replay('openai-chat-response-tool-call.json');
    // File: content null; weather {"location":"Florence, Italy"}; usage 61 / 16.
    assert.deepEqual(deltas, []);
    assert.equal(turn.text, '');
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [['call_15X0Q2MmkK1IeFfiol9LFlqb', 'weather', { location: 'Florence, Italy' }]],
    );
    assert.equal(turn.stopReason, 'tool_calls');
    assert.deepEqual(turn.usage, { inputTokens: 61, outputTokens: 16 });
  });

  test('non-streamed completion with two tool calls', async () => {
    const { turn } = await replay('openai-chat-response-tool-calls-parallel.json');
    // File: add and multiply, both {"a": 2, "b": 3}; usage 110 / 50.
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [
        ['call_2wt6qUGrlxczUadZYf3qXyH0', 'add', { a: 2, b: 3 }],
        ['call_vZOWZaH7tzu0rLZeogtafvrf', 'multiply', { a: 2, b: 3 }],
      ],
    );
    assert.deepEqual(turn.usage, { inputTokens: 110, outputTokens: 50 });
  });

  const errorFiles = [
    'openai-error-400-unsupported-parameter-max-tokens.json',
    'openai-error-400-unsupported-value-stream.json',
    'openai-error-401-invalid-api-key.json',
    'openai-error-404-model-not-found.json',
    'openai-error-429-insufficient-quota.json',
    'openai-error-429-rate-limit-tokens.reassembled.json',
    'ollama-openai-compat-error-400-tools-not-supported.json',
  ];
  for (const file of errorFiles) {
    test(`HTTP error body ${file}`, async () => {
      const status = Number(/-error-(\d{3})-/.exec(file)?.[1]);
      const expected = (JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { error: { message: string } }).error.message;
      await assert.rejects(replay(file), (error: unknown) => {
        assert.ok(error instanceof ModelError);
        assert.equal(error.status, status);
        assert.equal(error.message, expected);
        assert.equal(error.aborted, false);
        return true;
      });
    });
  }
});
