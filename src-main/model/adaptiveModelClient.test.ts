/**
 * The fallback, memory, retry and reasoning rules of the adaptive client, against the
 * scripted model server speaking the Chat Completions wire (Anthropic: anthropicClient.test.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import type { AdaptiveEvent } from './adaptiveModelClient.js';
import type { CapabilityStore } from './endpointCapabilities.js';
import { ModelError, type ModelTool, type TurnRequest } from './modelClient.js';
import { createOpenAiChatClient } from './openaiChatClient.js';
import type { RetryPolicy } from './retryPolicy.js';
import { scriptedModelSuite, turnOf } from './scriptedModelSuite.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/model-streams');

const LOAD: ModelTool = {
  name: 'layers_load',
  description: 'Loads a file as a layer.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const ask = (text: string, tools: ModelTool[] = [LOAD]): TurnRequest => ({
  messages: [
    { role: 'system', content: 'You are Mapwright.' },
    { role: 'user', content: text },
  ],
  tools,
});

const rejectsWith = (promise: Promise<unknown>, check: (e: ModelError) => void) =>
  assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof ModelError, `expected a ModelError, got ${String(e)}`);
    check(e);
    return true;
  });

describe('adaptive client: fallbacks and what is remembered', () => {
  let server: ScriptedModelServer;
  let store: CapabilityStore & { size: number };
  let waits: number[];
  let events: AdaptiveEvent[];
  const fast: RetryPolicy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 5000 };
  const client = (model = 'm', retry = fast) =>
    createOpenAiChatClient({
      baseUrl: server.url,
      model,
      capabilities: store,
      retry,
      onEvent: (e) => events.push(e),
      sleep: async (ms) => void waits.push(ms),
    });

  scriptedModelSuite((started) => (server = started), { resetEachTest: true, capabilities: (fresh) => (store = fresh) });
  beforeEach(() => {
    waits = [];
    events = [];
  });

  test('native tools first; a refusal switches to JSON in the prompt, and is remembered for the endpoint', async () => {
    server.behave({ refuseTools: true });
    server.script([
      { text: 'Loading it.\n{"tool": "layers_load", "arguments": {"path": "/d/rivers.gpkg"}}', chunkSize: 5 },
      { text: 'Done.' },
    ]);
    const first = await turnOf(client(), ask('load rivers'));
    assert.equal(server.requests.length, 2, 'one refused request, one under the JSON protocol');
    assert.ok(server.requests[0]?.tools, 'tools were tried first');
    assert.equal('tools' in server.requests[1]!, false);
    assert.match(String(server.requests[1]?.messages[0]?.content), /## Calling tools[\s\S]*- layers_load: Loads a file as a layer\./);
    assert.equal(first.turn.text, 'Loading it.');
    assert.deepEqual(
      first.turn.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [['layers_load', { path: '/d/rivers.gpkg' }]],
    );
    assert.match(first.turn.toolCalls[0]!.id, /^call_/);
    assert.equal(first.text.join(''), 'Loading it.\n', 'the person sees the prose, not the JSON');
    assert.deepEqual(
      events.map((e) => e.kind === 'refused' && e.feature),
      ['tools'],
    );

    // A new client for the same endpoint (the app restarted) goes straight to the JSON protocol.
    const again = await turnOf(client(), ask('and now?'));
    assert.equal(server.requests.length, 3);
    assert.equal('tools' in server.requests[2]!, false);
    assert.equal(again.turn.text, 'Done.');
    assert.equal(store.get(client().endpoint)?.tools, 'refused');

    // Another model behind the same URL is another endpoint: it tries native tools again.
    server.behave({ refuseTools: false });
    server.script([{ text: 'hi' }]);
    await turnOf(client('other-model'), ask('x'));
    assert.ok(server.requests[3]?.tools);
  });

  for (const file of ['ollama-openai-compat-error-400-tools-not-supported.json', 'ollama-native-error-400-tools-not-supported.json']) {
    test(`the recorded Ollama refusal ${file} switches to the JSON protocol`, async () => {
      server.script([
        { raw: { body: readFileSync(join(FIXTURES, file)), contentType: 'application/json', status: 400 } },
        { text: '{"tool":"layers_load","arguments":{"path":"a"}}' },
      ]);
      const { turn } = await turnOf(client(), ask('load a'));
      assert.equal(turn.toolCalls.length, 1);
      assert.equal(store.get(client().endpoint)?.tools, 'refused');
    });
  }

  test('under the JSON protocol, reasoning is cut out before the calls are parsed', async () => {
    server.behave({ refuseTools: true });
    server.script([
      {
        reasoning: 'Maybe {"tool":"layers_load","arguments":{"path":"wrong"}}?',
        reasoningShape: 'think-tags',
        text: '{"tool":"layers_load","arguments":{"path":"right"}}',
        chunkSize: 3,
      },
    ]);
    const { turn, reasoning } = await turnOf(client(), ask('load'));
    assert.deepEqual(
      turn.toolCalls.map((c) => JSON.parse(c.arguments)),
      [{ path: 'right' }],
    );
    assert.match(reasoning.join(''), /wrong/);
  });

  test('history under the JSON protocol: earlier calls as JSON, results as user text', async () => {
    server.behave({ refuseTools: true });
    server.script([{ text: 'Loaded.' }]);
    await turnOf(client(), {
      tools: [LOAD],
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'load a' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'layers_load', arguments: '{"path":"a"}' }] },
        { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
      ],
    });
    const sent = server.requests[1]!.messages;
    assert.deepEqual(sent.slice(1), [
      { role: 'user', content: 'load a' },
      { role: 'assistant', content: '{"tool":"layers_load","arguments":{"path":"a"}}' },
      { role: 'user', content: 'Tool result (layers_load, call c1):\n{"ok":true}' },
    ]);
  });

  test('a refused stream falls back to a plain request, remembered', async () => {
    server.behave({ refuseStream: true });
    server.script([{ text: 'Plain answer.' }, { text: 'Second.' }]);
    const first = await turnOf(client(), ask('x', []));
    assert.equal(first.turn.text, 'Plain answer.');
    assert.deepEqual(first.text, ['Plain answer.'], 'shown in one piece');
    assert.deepEqual(
      server.requests.map((r) => r.stream),
      [true, false],
    );
    await turnOf(client(), ask('y', []));
    assert.deepEqual(
      server.requests.map((r) => r.stream),
      [true, false, false],
    );
    assert.equal(store.get(client().endpoint)?.streaming, 'refused');
  });

  test('a server that answers one JSON body to a stream request is a refusal: used, not asked again', async () => {
    server.behave({ ignoreStream: true });
    server.script([{ text: 'Whole.' }, { text: 'Next.' }]);
    assert.equal((await turnOf(client(), ask('x', []))).turn.text, 'Whole.');
    assert.equal(server.requests.length, 1, 'the body it sent is the turn: no second request');
    await turnOf(client(), ask('y', []));
    assert.equal(server.requests[1]?.stream, false);
  });

  test('both refusals in a row end in a plain request under the JSON protocol', async () => {
    server.behave({ refuseTools: true, refuseStream: true });
    server.script([{ text: '{"tool":"layers_load","arguments":{"path":"p"}}' }]);
    const { turn } = await turnOf(client(), ask('x'));
    assert.equal(turn.toolCalls.length, 1);
    assert.deepEqual(
      server.requests.map((r) => [Boolean(r.tools), r.stream]),
      [
        [true, true],
        [false, true],
        [false, false],
      ],
    );
  });

  test('a refused stream_options is dropped and remembered; streaming stays', async () => {
    server.behave({ refuseStreamOptions: true });
    server.script([{ text: 'ok' }]);
    await turnOf(client(), ask('x', []));
    assert.deepEqual(
      server.requests.map((r) => [r.stream, 'stream_options' in r]),
      [
        [true, true],
        [true, false],
      ],
    );
    assert.equal(store.get(client().endpoint)?.streamUsage, 'refused');
    assert.equal(store.get(client().endpoint)?.streaming, 'ok');
  });

  for (const status of [401, 403]) {
    test(`HTTP ${status} is raised at once and disables nothing`, async () => {
      // Even with a body that reads like a tools refusal.
      server.script([
        { status, errorBody: { error: { message: 'tools are not supported for this key', type: 'x', param: 'tools', code: null } } },
      ]);
      await rejectsWith(turnOf(client(), ask('x')), (e) => assert.equal(e.status, status));
      assert.equal(server.requests.length, 1);
      assert.equal(store.get(client().endpoint), null);
    });
  }

  for (const status of [429, 500, 502, 503, 529]) {
    test(`HTTP ${status} is retried with backoff, a bounded number of times, then raised; nothing disabled`, async () => {
      server.script([{ status }, { status }, { status }, { text: 'never reached' }]);
      await rejectsWith(turnOf(client(), ask('x')), (e) => {
        assert.equal(e.status, status);
        assert.equal(e.aborted, false);
      });
      assert.equal(server.requests.length, 3, 'the first try and two retries');
      assert.equal(waits.length, 2);
      assert.ok(waits[0]! >= 100 && waits[0]! <= 125 && waits[1]! >= 200 && waits[1]! <= 250, `exponential: ${waits}`);
      assert.ok(
        server.requests.every((r) => r.tools && r.stream === true),
        'every retry still asks for tools and streaming',
      );
      assert.equal(store.get(client().endpoint), null);
    });
  }

  test('Retry-After is honoured (seconds), and a retry that succeeds is a turn', async () => {
    server.script([{ status: 429, retryAfter: 2 }, { text: 'Back.' }]);
    assert.equal((await turnOf(client(), ask('x'))).turn.text, 'Back.');
    assert.deepEqual(waits, [2000]);
    assert.deepEqual(events, [{ kind: 'retrying', status: 429, delayMs: 2000, retry: 1 }]);
  });

  test('a Retry-After longer than the cap is not waited for: raised at once', async () => {
    server.script([{ status: 503, retryAfter: 3600 }, { text: 'not reached' }]);
    await rejectsWith(turnOf(client(), ask('x')), (e) => assert.equal(e.status, 503));
    assert.equal(server.requests.length, 1);
    assert.deepEqual(waits, []);
  });

  test('an exhausted quota (recorded 429 insufficient_quota) is not retried', async () => {
    const body = JSON.parse(readFileSync(join(FIXTURES, 'openai-error-429-insufficient-quota.json'), 'utf8')) as object;
    server.script([{ status: 429, errorBody: body }, { text: 'not reached' }]);
    await rejectsWith(turnOf(client(), ask('x')), (e) => assert.match(e.message, /exceeded your current quota/));
    assert.equal(server.requests.length, 1);
  });

  test('400s that are not refusals of ours are raised and disable nothing', async () => {
    const maxTokens = JSON.parse(readFileSync(join(FIXTURES, 'openai-error-400-unsupported-parameter-max-tokens.json'), 'utf8')) as object;
    server.script([
      { status: 400, errorBody: maxTokens },
      { status: 404 },
      { status: 400, errorBody: { error: { message: 'model does not support tools' } } },
    ]);
    await rejectsWith(turnOf(client(), ask('x')), (e) => assert.equal(e.status, 400));
    await rejectsWith(turnOf(client(), ask('x')), (e) => assert.equal(e.status, 404));
    // A tools marker, but no tools were sent: nothing to refuse.
    await rejectsWith(turnOf(client(), ask('x', [])), (e) => assert.equal(e.status, 400));
    assert.equal(server.requests.length, 3);
    assert.equal(store.get(client().endpoint), null);
  });

  test('Stop during a backoff wait ends it at once', async () => {
    server.script([{ status: 503, retryAfter: 10 }]);
    const slow = createOpenAiChatClient({
      baseUrl: server.url,
      model: 'm',
      capabilities: store,
      retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 30_000 },
    });
    const controller = new AbortController();
    const promise = turnOf(slow, ask('x'), controller.signal);
    await server.waitForRequests(1);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    controller.abort();
    await rejectsWith(promise, (e) => assert.equal(e.aborted, true));
    assert.ok(Date.now() - t0 < 200, `took ${Date.now() - t0} ms`);
    assert.equal(server.requests.length, 1);
  });

  test('a stream cut mid-way is a clear error and is not retried once text was shown', async () => {
    server.script([{ text: 'This reply will be cut off before it ends.', chunkSize: 4, cutAfterChunks: 4 }, { text: 'not reached' }]);
    const shown: string[] = [];
    await rejectsWith(client().streamTurn(ask('x'), { signal: new AbortController().signal, onTextDelta: (d) => shown.push(d) }), (e) => {
      assert.match(e.message, /^The model's stream ended early/);
      assert.equal(e.status, null);
    });
    assert.ok(shown.length > 0);
    assert.equal(server.requests.length, 1);
    assert.equal(store.get(client().endpoint), null, 'a cut is an outage: nothing learnt from it');
  });

  test('text streamed before a tool call stays in the turn', async () => {
    server.script([{ text: 'First I load the file.', toolCalls: [{ name: 'layers_load', arguments: { path: 'a' } }], chunkSize: 3 }]);
    const { turn, text } = await turnOf(client(), ask('x'));
    assert.equal(turn.text, 'First I load the file.');
    assert.equal(text.join(''), turn.text);
    assert.equal(turn.toolCalls.length, 1);
    assert.equal(store.get(client().endpoint)?.tools, 'native');
  });

  test('a tool-argument JSON split into one-character deltas arrives whole', async () => {
    const args = { path: '/données/rivières 🌊.gpkg|layername=rivers', where: "name LIKE '%a%'" };
    server.script([{ toolCalls: [{ name: 'layers_load', arguments: args }], chunkSize: 1 }]);
    const { turn } = await turnOf(client(), ask('x'));
    assert.deepEqual(JSON.parse(turn.toolCalls[0]!.arguments), args);
  });
});

describe('adaptive client: reasoning in the Chat Completions shapes', () => {
  let server: ScriptedModelServer;
  let store: CapabilityStore;
  scriptedModelSuite((started) => (server = started), { resetEachTest: true, capabilities: (fresh) => (store = fresh) });
  const client = () =>
    createOpenAiChatClient({
      baseUrl: server.url,
      model: 'r1',
      capabilities: store,
      retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 },
    });

  for (const shape of ['reasoning_content', 'reasoning', 'think-tags'] as const) {
    test(`${shape}: shown live as reasoning, kept out of the answer`, async () => {
      server.script([
        {
          reasoning: 'The CRS is geographic; reproject first.',
          reasoningShape: shape,
          text: 'Reproject to EPSG:3857 first.',
          chunkSize: 3,
        },
      ]);
      const { turn, text, reasoning } = await turnOf(client(), ask('buffer 5 km', []));
      assert.equal(reasoning.join(''), 'The CRS is geographic; reproject first.');
      assert.equal(text.join(''), 'Reproject to EPSG:3857 first.');
      assert.equal(turn.text, 'Reproject to EPSG:3857 first.');
      assert.equal(turn.reasoning, 'The CRS is geographic; reproject first.');
      assert.equal(store.get(client().endpoint)?.reasoning, shape === 'think-tags' ? 'think-tags' : 'reasoning-field');
    });
  }

  test('reasoning is not sent back unless the endpoint asks for it; then only on tool-call turns', async () => {
    const history: TurnRequest = {
      tools: [LOAD],
      messages: [
        { role: 'user', content: 'load a' },
        {
          role: 'assistant',
          content: '',
          reasoning: 'Need to load a.',
          toolCalls: [{ id: 'c1', name: 'layers_load', arguments: '{"path":"a"}' }],
        },
        { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
        { role: 'assistant', content: 'Loaded.', reasoning: 'Say so.' },
        { role: 'user', content: 'again' },
      ],
    };
    server.script([{ text: 'ok' }]);
    await turnOf(client(), history);
    assert.ok(server.requests[0]!.messages.every((m) => !('reasoning_content' in m)));

    // DeepSeek's thinking mode with tools: 400 when the reasoning of a tool-call turn is missing.
    server.reset();
    const deepseek = (body: { messages: { role: string; tool_calls?: unknown; reasoning_content?: unknown }[] }) =>
      body.messages.some((m) => m.role === 'assistant' && m.tool_calls && m.reasoning_content === undefined)
        ? {
            status: 400,
            errorBody: {
              error: {
                message: 'Missing `reasoning_content` field in the assistant message at message index 1.',
                type: 'invalid_request_error',
                param: null,
                code: 'invalid_request_error',
              },
            },
          }
        : { text: 'ok' };
    server.script([deepseek, deepseek, deepseek]);
    assert.equal((await turnOf(client(), history)).turn.text, 'ok');
    const resent = server.requests[1]!.messages;
    assert.equal(resent[1]?.reasoning_content, 'Need to load a.');
    assert.equal('reasoning_content' in resent[3]!, false, 'never on a turn without calls');
    assert.equal(store.get(client().endpoint)?.reasoningReplay, true);
    assert.equal((await turnOf(client(), history)).turn.text, 'ok');
    assert.equal(server.requests.length, 3, 'remembered: sent at once the next time');
  });
});
