/**
 * Replays real recorded provider responses (see /work/shared/fixtures/model-streams/SOURCES.md)
 * byte for byte through the scripted model server (its `raw` replies) and checks the turns
 * the client folds from them. Expected values are the facts read from the files, noted
 * beside each case, plus a few derived in the test by a plain line split, independent of
 * the client's parser.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startScriptedModelServer, type ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { ModelError, type ModelTurn } from './modelClient.js';
import { createOpenAiChatClient } from './openaiChatClient.js';
import { NO_RETRY } from './retryPolicy.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/model-streams');
const present = existsSync(FIXTURES);
if (!present) console.log(`# skipping fixture replays: ${FIXTURES} is absent`);

describe('OpenAI chat client: recorded provider streams', { skip: !present && 'fixtures absent' }, () => {
  let server: ScriptedModelServer;
  before(async () => {
    server = await startScriptedModelServer();
  });
  beforeEach(() => server.reset());
  after(() => server.close());

  /**
   * Serves the file as the answer. `slices` > 0 writes it that many bytes at a time, so
   * events and UTF-8 characters split across reads. Error files get the status in their name.
   */
  async function replay(file: string, slices = 0): Promise<{ turn: ModelTurn; deltas: string[]; reasoning: string[] }> {
    const status = Number(/-error-(\d{3})-/.exec(file)?.[1] ?? 200);
    const contentType = file.endsWith('.sse') ? 'text/event-stream' : 'application/json';
    server.script([{ raw: { body: readFileSync(join(FIXTURES, file)), contentType, status }, rawSliceBytes: slices }]);
    const client = createOpenAiChatClient({
      // The full `…/chat/completions` form of the URL is accepted as well as the base.
      baseUrl: slices ? `${server.url}/chat/completions` : `${server.url}/`,
      model: 'gpt-4o-mini',
      apiKey: null,
      retry: NO_RETRY,
    });
    const deltas: string[] = [];
    const reasoning: string[] = [];
    const turn = await client.streamTurn(
      { messages: [{ role: 'user', content: 'hi' }], tools: [] },
      { signal: new AbortController().signal, onTextDelta: (d) => deltas.push(d), onReasoningDelta: (d) => reasoning.push(d) },
    );
    return { turn, deltas, reasoning };
  }

  /** Concatenated `delta.<field>` values, by a line split that knows nothing of SSE parsers. */
  function joinedDeltas(file: string, field: 'content' | 'reasoning_content' | 'reasoning'): string {
    return readFileSync(join(FIXTURES, file), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { choices?: { delta?: Record<string, unknown> }[] })
      .map((chunk) => chunk.choices?.[0]?.delta?.[field])
      .filter((value): value is string => typeof value === 'string')
      .join('');
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

  test('DeepSeek stream: reasoning shown as reasoning, finish without [DONE] is a whole turn', async () => {
    const file = 'deepseek-chat-stream-reasoning-content-tool-call.sse';
    const { turn, deltas, reasoning } = await replay(file);
    // File: no [DONE] (see SOURCES note 4); weather {"location": "San Francisco"}; usage 339 / 83
    // in the finish chunk itself.
    assert.deepEqual(deltas, []);
    assert.equal(reasoning.join(''), joinedDeltas(file, 'reasoning_content'));
    assert.equal(turn.reasoning, joinedDeltas(file, 'reasoning_content'));
    assert.match(turn.reasoning ?? '', /^The user is asking for the weather in San Francisco/);
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [['call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', 'weather', { location: 'San Francisco' }]],
    );
    assert.equal(turn.stopReason, 'tool_calls');
    assert.deepEqual(turn.usage, { inputTokens: 339, outputTokens: 83 });
  });

  for (const slices of [0, 3]) {
    const how = slices ? ' (3 bytes at a time)' : '';
    test(`reasoning_content, then content: DeepSeek reasoner${how}`, async () => {
      const file = 'deepseek-chat-stream-reasoning-content-then-content.sse';
      const { turn, deltas, reasoning } = await replay(file, slices);
      // File: reasoning (middle trimmed, SOURCES note 5), then 'The word "strawberry" contains three "r"s.'
      assert.equal(turn.text, 'The word "strawberry" contains three "r"s.');
      assert.equal(deltas.join(''), turn.text);
      assert.equal(reasoning.join(''), joinedDeltas(file, 'reasoning_content'));
      assert.equal(turn.stopReason, 'stop');
    });

    test(`reasoning_content, content, then a tool call: Z.ai GLM${how}`, async () => {
      const file = 'zai-glm-chat-stream-reasoning-content-then-content-then-tool-call.sse';
      const { turn, reasoning } = await replay(file, slices);
      assert.equal(turn.text, joinedDeltas(file, 'content'));
      assert.equal(turn.text, "I'll check the weather in Florence, Italy for you.");
      assert.equal(reasoning.join(''), joinedDeltas(file, 'reasoning_content'));
      // File: one chunk holds the whole call, arguments {"location":"Florence"}.
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
        [['weather', { location: 'Florence' }]],
      );
    });

    test(`<think> inside content, escaped as \\u003C: hosted DeepSeek-R1${how}`, async () => {
      const { turn, deltas, reasoning } = await replay('azure-deepseek-r1-chat-stream-think-in-content.sse', slices);
      // File: content '<think>\n\n</think>\n\nHello! How can I assist you today? 😊'
      assert.equal(turn.text, 'Hello! How can I assist you today? 😊');
      assert.equal(deltas.join(''), turn.text);
      assert.equal(reasoning.join(''), '\n\n');
    });
  }

  test('llama.cpp: reasoning_content then a tool call with a random id', async () => {
    const file = 'llamacpp-chat-stream-reasoning-content-tool-call.sse';
    const { turn, reasoning } = await replay(file);
    assert.equal(reasoning.join(''), joinedDeltas(file, 'reasoning_content'));
    assert.equal(turn.text, '');
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [['weather', { location: 'Florence, Italy' }]],
    );
  });

  test('Ollama, not streamed: <think> inline in message.content is cut out', async () => {
    const { turn, deltas, reasoning } = await replay('ollama-openai-compat-response-think-in-content.json');
    assert.match(turn.reasoning ?? '', /^\nOkay, the user says "Hello!"/);
    assert.equal(reasoning.join(''), turn.reasoning);
    assert.match(turn.text, /^Hello! How can I assist you/);
    assert.doesNotMatch(turn.text, /think>/);
    assert.deepEqual(deltas, [turn.text]);
  });

  test('OpenRouter stream: comment lines, empty argument chunks, finish sent twice; `reasoning` field', async () => {
    const file = 'openrouter-chat-stream-reasoning-tool-call.sse';
    const { turn, reasoning } = await replay(file);
    assert.equal(reasoning.join(''), joinedDeltas(file, 'reasoning'));
    assert.ok(reasoning.join('').length > 300);
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
    'openai-error-401-invalid-api-key.json',
    'openai-error-404-model-not-found.json',
    'openai-error-429-insufficient-quota.json',
    'openai-error-429-rate-limit-tokens.reassembled.json',
    // A tools refusal, but this request sent no tools: raised as it is.
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

  test("o1's recorded 400 for stream:true is a refusal to stream: the same turn is asked for plainly", async () => {
    const file = 'openai-error-400-unsupported-value-stream.json';
    server.script([
      { raw: { body: readFileSync(join(FIXTURES, file)), contentType: 'application/json', status: 400 } },
      { raw: { body: readFileSync(join(FIXTURES, 'openai-chat-response-tool-call.json')), contentType: 'application/json' } },
    ]);
    const client = createOpenAiChatClient({ baseUrl: server.url, model: 'o1', retry: NO_RETRY });
    const turn = await client.streamTurn(
      { messages: [{ role: 'user', content: 'hi' }], tools: [] },
      { signal: new AbortController().signal, onTextDelta: () => undefined },
    );
    assert.deepEqual(
      server.requests.map((r) => r.stream),
      [true, false],
    );
    assert.equal(turn.toolCalls[0]?.name, 'weather');
    assert.equal(client.capabilities().streaming, 'refused');
  });
});
