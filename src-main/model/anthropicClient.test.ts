/**
 * The Anthropic Messages client: real recorded streams replayed byte for byte through the
 * scripted model server (see ../shared/fixtures/model-streams/SOURCES.md), then the
 * scripted Anthropic wire for requests, thinking replay, fallbacks and errors. Expected
 * values of the recordings are derived in the test by a plain line split.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { createAnthropicClient } from './anthropicClient.js';
import type { CapabilityStore } from './endpointCapabilities.js';
import { ModelError, type ModelTool, type TurnRequest } from './modelClient.js';
import { NO_RETRY } from './retryPolicy.js';
import { scriptedModelSuite, turnOf } from './scriptedModelSuite.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/model-streams');
const present = existsSync(FIXTURES);
if (!present) console.log(`# skipping Anthropic fixture replays: ${FIXTURES} is absent`);

const WEATHER: ModelTool = {
  name: 'weather',
  description: 'Weather for a place.',
  parameters: { type: 'object', properties: { location: { type: 'string' } } },
};
const ask = (text: string, tools: ModelTool[] = [WEATHER]): TurnRequest => ({
  messages: [
    { role: 'system', content: 'You are Mapwright.' },
    { role: 'user', content: text },
  ],
  tools,
});

/** What a recorded stream holds, by a line split that knows nothing of the client. */
function factsOf(file: string) {
  const facts = {
    text: '',
    thinking: '',
    signature: '',
    tools: new Map<number, { id: string; name: string; json: string }>(),
    stop: '',
    input: 0,
    output: 0,
  };
  for (const line of readFileSync(join(FIXTURES, file), 'utf8').split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const d = JSON.parse(line.slice(6));
    if (d.type === 'message_start') facts.input = d.message.usage.input_tokens;
    if (d.type === 'content_block_start' && d.content_block.type === 'tool_use')
      facts.tools.set(d.index, { id: d.content_block.id, name: d.content_block.name, json: '' });
    if (d.type === 'content_block_delta') {
      if (d.delta.type === 'text_delta') facts.text += d.delta.text;
      if (d.delta.type === 'thinking_delta') facts.thinking += d.delta.thinking;
      if (d.delta.type === 'signature_delta') facts.signature += d.delta.signature;
      if (d.delta.type === 'input_json_delta') facts.tools.get(d.index)!.json += d.delta.partial_json;
    }
    if (d.type === 'message_delta') {
      facts.stop = d.delta.stop_reason;
      facts.output = d.usage.output_tokens;
    }
  }
  return facts;
}

describe('Anthropic client: recorded streams through the scripted server', { skip: !present && 'fixtures absent' }, () => {
  let server: ScriptedModelServer;
  scriptedModelSuite((started) => (server = started), { resetEachTest: true });

  const replay = (file: string, slice: number, status = 200) => {
    const contentType = file.endsWith('.sse') ? 'text/event-stream' : 'application/json';
    server.script([{ raw: { body: readFileSync(join(FIXTURES, file)), contentType, status }, rawSliceBytes: slice }]);
    return turnOf(
      createAnthropicClient({ baseUrl: server.url, model: 'claude-sonnet-4-20250514', apiKey: 'k', retry: NO_RETRY }),
      ask('hi'),
    );
  };

  for (const slice of [0, 7]) {
    const how = slice ? ' (7 bytes at a time)' : '';

    test(`text stream${how}`, async () => {
      const facts = factsOf('anthropic-stream-text.sse');
      const { turn, text } = await replay('anthropic-stream-text.sse', slice);
      assert.equal(turn.text, facts.text);
      assert.match(turn.text, /^Olá!/);
      assert.equal(text.join(''), facts.text);
      assert.deepEqual(turn.toolCalls, []);
      assert.equal(turn.stopReason, 'end_turn');
      assert.deepEqual(turn.usage, { inputTokens: facts.input, outputTokens: facts.output });
      assert.equal(turn.thinking, undefined);
    });

    test(`thinking with signature_delta, then tool_use from input_json_delta${how}`, async () => {
      const facts = factsOf('anthropic-stream-thinking-tool-use.sse');
      const { turn, reasoning } = await replay('anthropic-stream-thinking-tool-use.sse', slice);
      assert.equal(reasoning.join(''), facts.thinking, 'thinking shown live, the empty delta included harmlessly');
      assert.equal(turn.reasoning, facts.thinking);
      assert.deepEqual(turn.thinking, [{ type: 'thinking', thinking: facts.thinking, signature: facts.signature }]);
      assert.equal(facts.signature.length, 636);
      assert.equal(turn.text, '');
      assert.deepEqual(turn.toolCalls, [{ id: 'toolu_01Js4AMfx5qpTLhwTusnvT68', name: 'weather', arguments: facts.tools.get(1)!.json }]);
      assert.deepEqual(JSON.parse(turn.toolCalls[0]!.arguments), { location: 'Florence, Italy' });
      assert.equal(turn.stopReason, 'tool_use');
      assert.deepEqual(turn.usage, { inputTokens: 424, outputTokens: 119 });
    });

    test(`text, then two parallel tool_use blocks${how}`, async () => {
      const facts = factsOf('anthropic-stream-text-then-parallel-tool-use.sse');
      const { turn } = await replay('anthropic-stream-text-then-parallel-tool-use.sse', slice);
      assert.equal(turn.text, facts.text);
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
        [...facts.tools.values()].map((t) => [t.id, t.name, JSON.parse(t.json)]),
      );
      assert.deepEqual(
        turn.toolCalls.map((c) => c.name),
        ['add', 'multiply'],
      );
    });
  }

  test('a whole Message with a thinking block and a tool_use', async () => {
    const message = JSON.parse(readFileSync(join(FIXTURES, 'anthropic-messages-response-thinking-tool-use.json'), 'utf8'));
    const { turn, reasoning } = await replay('anthropic-messages-response-thinking-tool-use.json', 0);
    assert.deepEqual(turn.thinking, [{ type: 'thinking', thinking: message.content[0].thinking, signature: message.content[0].signature }]);
    assert.equal(reasoning.join(''), message.content[0].thinking);
    assert.deepEqual(turn.toolCalls, [
      { id: 'toolu_014azqsWLU8Djh6RhmBGRC2u', name: 'weather', arguments: '{"location":"Florence, Italy"}' },
    ]);
    assert.deepEqual(turn.usage, { inputTokens: 424, outputTokens: 118 });
  });

  test('the documented in-stream overloaded error is an outage (529), not a turn', async () => {
    await assert.rejects(replay('anthropic-stream-error-overloaded.sse', 0), (e: unknown) => {
      assert.ok(e instanceof ModelError);
      assert.equal(e.status, 529);
      assert.match(e.message, /Overloaded/);
      return true;
    });
  });
});

describe('Anthropic client against the scripted Messages wire', () => {
  let server: ScriptedModelServer;
  let store: CapabilityStore;
  scriptedModelSuite((started) => (server = started), { resetEachTest: true, capabilities: (fresh) => (store = fresh) });
  const client = (thinkingBudget: number | null = null) =>
    createAnthropicClient({
      baseUrl: server.url,
      model: 'claude-test',
      apiKey: 'sk-ant-test',
      thinkingBudget,
      capabilities: store,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 },
    });

  test('the request: system apart, tools with input_schema, key headers, thinking off until a budget is set', async () => {
    server.script([{ text: 'ok' }, { text: 'ok' }]);
    await turnOf(client(), ask('hi'));
    const body = server.requests[0] as unknown as Record<string, unknown>;
    assert.equal(server.requestWires[0], 'anthropic');
    assert.equal(body.system, 'You are Mapwright.');
    assert.deepEqual(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    assert.deepEqual(body.tools, [{ name: 'weather', description: 'Weather for a place.', input_schema: WEATHER.parameters }]);
    assert.equal(body.stream, true);
    assert.equal('thinking' in body, false);
    assert.equal(server.requestHeaders[0]?.['x-api-key'], 'sk-ant-test');
    assert.equal(server.requestHeaders[0]?.['anthropic-version'], '2023-06-01');
    assert.equal(server.requestHeaders[0]?.authorization, undefined);

    await turnOf(client(2048), ask('hi'));
    const withThinking = server.requests[1] as unknown as { thinking: unknown; max_tokens: number };
    assert.deepEqual(withThinking.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.ok(withThinking.max_tokens > 2048);
  });

  test('signed thinking blocks are replayed verbatim and first; tool results follow as user blocks', async () => {
    server.script([
      {
        reasoning: 'Florence is in Tuscany.',
        signature: 'EqQBCkgIAxABGAIiQL+sig==',
        toolCalls: [{ name: 'weather', arguments: { location: 'Florence' } }],
        chunkSize: 2,
      },
      { text: 'Sunny.' },
    ]);
    const first = await turnOf(client(1024), ask('weather?'));
    const call = first.turn.toolCalls[0]!;
    assert.deepEqual(first.turn.thinking, [
      { type: 'thinking', thinking: 'Florence is in Tuscany.', signature: 'EqQBCkgIAxABGAIiQL+sig==' },
    ]);
    assert.deepEqual(JSON.parse(call.arguments), { location: 'Florence' }, 'input_json_delta in 2-character pieces');
    await turnOf(client(1024), {
      tools: [WEATHER],
      messages: [
        ...ask('weather?').messages,
        { role: 'assistant', content: first.turn.text, toolCalls: first.turn.toolCalls, thinking: first.turn.thinking! },
        { role: 'tool', toolCallId: call.id, content: '{"ok":true}' },
      ],
    });
    const messages = (server.requests[1] as unknown as { messages: { role: string; content: { type: string }[] }[] }).messages;
    assert.deepEqual(messages[1], {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Florence is in Tuscany.', signature: 'EqQBCkgIAxABGAIiQL+sig==' },
        { type: 'tool_use', id: call.id, name: 'weather', input: { location: 'Florence' } },
      ],
    });
    assert.deepEqual(messages[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"ok":true}' }] });
  });

  test('an endpoint refusing tools gets the JSON protocol, remembered', async () => {
    server.behave({ refuseTools: true });
    server.script([{ text: '{"tool":"weather","arguments":{"location":"Oslo"}}' }]);
    const { turn } = await turnOf(client(), ask('weather?'));
    assert.deepEqual(
      turn.toolCalls.map((c) => c.name),
      ['weather'],
    );
    assert.equal(server.requests.length, 2);
    assert.equal('tools' in server.requests[1]!, false);
    assert.match(String((server.requests[1] as unknown as { system: string }).system), /## Calling tools/);
    assert.equal(store.get(client().endpoint)?.tools, 'refused');
  });

  test('a refused stream falls back to a plain request', async () => {
    server.behave({ refuseStream: true });
    server.script([{ reasoning: 'r', text: 'Plain.' }]);
    const { turn, reasoning } = await turnOf(client(), ask('x', []));
    assert.equal(turn.text, 'Plain.');
    assert.deepEqual(reasoning, ['r']);
    assert.deepEqual(
      server.requests.map((r) => r.stream),
      [true, false],
    );
  });

  test('overloaded (529) and 5xx are retried; 401 is not', async () => {
    server.script([{ status: 529 }, { status: 500 }, { text: 'Finally.' }]);
    assert.equal((await turnOf(client(), ask('x'))).turn.text, 'Finally.');
    assert.equal(server.requests.length, 3);
    const learnt = store.get(client().endpoint);
    server.reset();
    server.script([{ status: 401 }, { text: 'not reached' }]);
    await assert.rejects(
      turnOf(client(), ask('x')),
      (e: unknown) => e instanceof ModelError && e.status === 401 && /authentication_error/.test(e.message),
    );
    assert.equal(server.requests.length, 1);
    assert.deepEqual(store.get(client().endpoint), learnt, 'an outage changes nothing that was learnt');
  });

  test('a stream cut before message_stop is an early end', async () => {
    server.script([{ text: 'half an answer', chunkSize: 3, cutAfterChunks: 5 }]);
    await assert.rejects(turnOf(client(), ask('x')), (e: unknown) => e instanceof ModelError && /stream ended early/.test(e.message));
  });

  test('models are listed from GET /v1/models with the Anthropic headers', async () => {
    server.setModels(['claude-b', 'claude-a']);
    assert.deepEqual(await client().listModels(new AbortController().signal), ['claude-a', 'claude-b']);
  });
});
