/**
 * The client against the scripted model server: the same wire format a real endpoint
 * speaks, with the edge cases (split arguments, Stop, HTTP errors, cuts) on demand.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { NO_MORE_STEPS_TEXT, startScriptedModelServer, type ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { ModelError, type ModelClient, type ModelTool, type TurnRequest } from './modelClient.js';
import { createOpenAiChatClient } from './openaiChatClient.js';
import { NO_RETRY } from './retryPolicy.js';

const LOAD_TOOL: ModelTool = {
  name: 'layers_load',
  description: 'Loads a file as a layer.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const ask = (text: string, tools: ModelTool[] = []): TurnRequest => ({ messages: [{ role: 'user', content: text }], tools });

function run(client: ModelClient, request: TurnRequest, signal = new AbortController().signal) {
  const deltas: string[] = [];
  const promise = client.streamTurn(request, { signal, onTextDelta: (d) => deltas.push(d) });
  return { deltas, promise };
}

function isModelError(check: (error: ModelError) => void) {
  return (error: unknown) => {
    assert.ok(error instanceof ModelError, `expected ModelError, got ${String(error)}`);
    check(error);
    return true;
  };
}

describe('OpenAI chat client against the scripted model server', () => {
  let server: ScriptedModelServer;
  let client: ModelClient;
  before(async () => {
    server = await startScriptedModelServer();
    // Retries and fallbacks have their own tests (adaptiveModelClient.test.ts): here one request, one answer.
    client = createOpenAiChatClient({ baseUrl: server.url, model: 'test-model', apiKey: null, retry: NO_RETRY });
  });
  beforeEach(() => server.reset());
  after(() => server.close());

  test('streams text as deltas and folds them into the turn', async () => {
    const text = 'The layer has 42 features, all polygons.';
    server.script([{ text, chunkSize: 4 }]);
    const { deltas, promise } = run(client, ask('How many?'));
    const turn = await promise;
    assert.equal(turn.text, text);
    assert.equal(deltas.join(''), text);
    assert.equal(deltas.length, Math.ceil(text.length / 4));
    assert.deepEqual(turn.toolCalls, []);
    assert.equal(turn.stopReason, 'stop');
    assert.ok(turn.usage && turn.usage.inputTokens > 0 && turn.usage.outputTokens > 0);
  });

  test('tool-call arguments sent one character per chunk arrive whole', async () => {
    const args = { path: '/data/rivers ünïcode 🌍.gpkg|layername=rivers', options: { limit: 10, tags: ['a', 'b'] } };
    server.script([{ toolCalls: [{ name: 'layers_load', arguments: args, id: 'call_1' }], chunkSize: 1 }]);
    const turn = await run(client, ask('Load rivers', [LOAD_TOOL])).promise;
    assert.equal(turn.toolCalls.length, 1);
    assert.equal(turn.toolCalls[0]?.id, 'call_1');
    assert.equal(turn.toolCalls[0]?.name, 'layers_load');
    assert.deepEqual(JSON.parse(turn.toolCalls[0]?.arguments ?? ''), args);
    assert.equal(turn.stopReason, 'tool_calls');
  });

  test('parallel tool calls keep their order, ids and arguments', async () => {
    server.script([
      {
        text: 'Loading both.',
        toolCalls: [
          { name: 'layers_load', arguments: { path: 'a.shp' } },
          { name: 'layers_load', arguments: { path: 'b.tif' }, id: 'call_b' },
          { name: 'inspect_list_layers', arguments: '{}' },
        ],
        chunkSize: 3,
      },
    ]);
    const turn = await run(client, ask('Load a and b', [LOAD_TOOL])).promise;
    assert.equal(turn.text, 'Loading both.');
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [
        ['layers_load', { path: 'a.shp' }],
        ['layers_load', { path: 'b.tif' }],
        ['inspect_list_layers', {}],
      ],
    );
    assert.equal(turn.toolCalls[1]?.id, 'call_b');
    assert.equal(new Set(turn.toolCalls.map((c) => c.id)).size, 3);
  });

  test('the server records the request exactly as the wire format wants it', async () => {
    const keyed = createOpenAiChatClient({ baseUrl: `${server.url}/`, model: 'test-model', apiKey: 'sk-test' });
    server.script([{ text: 'ok' }]);
    const request: TurnRequest = {
      messages: [
        { role: 'system', content: 'You are Mapwright.' },
        { role: 'user', content: 'Load rivers' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'layers_load', arguments: '{"path":"r.gpkg"}' }] },
        { role: 'tool', toolCallId: 'call_9', content: '{"ok":true}' },
        { role: 'assistant', content: 'Loaded.' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [LOAD_TOOL],
    };
    await run(keyed, request).promise;
    assert.equal(server.requests.length, 1);
    assert.deepEqual(server.requests[0], {
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You are Mapwright.' },
        { role: 'user', content: 'Load rivers' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'layers_load', arguments: '{"path":"r.gpkg"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_9', content: '{"ok":true}' },
        { role: 'assistant', content: 'Loaded.' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [{ type: 'function', function: LOAD_TOOL }],
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(server.requestHeaders[0]?.authorization, 'Bearer sk-test');
  });

  test('no tools: neither `tools` nor `tool_choice` is sent, nor an Authorization header without a key', async () => {
    server.script([{ text: 'hi' }]);
    await run(client, ask('hello')).promise;
    const body = server.requests[0];
    assert.ok(body);
    assert.equal('tools' in body, false);
    assert.equal('tool_choice' in body, false);
    assert.equal(server.requestHeaders[0]?.authorization, undefined);
  });

  test('a function step answers from the last tool result', async () => {
    server.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: 'x.shp' }, id: 'call_x' }] },
      (body) => {
        const last = body.messages.at(-1);
        return { text: `Result for ${last?.tool_call_id}: ${String(last?.content)}` };
      },
    ]);
    const first = await run(client, ask('Load x', [LOAD_TOOL])).promise;
    const call = first.toolCalls[0];
    assert.ok(call);
    const second = await run(client, {
      messages: [
        { role: 'user', content: 'Load x' },
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: call.id, content: '{"loaded":"x"}' },
      ],
      tools: [LOAD_TOOL],
    }).promise;
    assert.equal(second.text, 'Result for call_x: {"loaded":"x"}');
  });

  test('a server that ignores stream:true still yields a turn, its text forwarded once; then it is asked plainly', async () => {
    // Its own client: it remembers the refusal, which would change the other tests' requests.
    const own = createOpenAiChatClient({ baseUrl: server.url, model: 'test-model', retry: NO_RETRY });
    server.script([
      { text: 'Whole answer.', toolCalls: [{ name: 'layers_load', arguments: { path: 'a' }, id: 'c' }], ignoreStream: true },
      { text: 'Next.' },
    ]);
    const { deltas, promise } = run(own, ask('x', [LOAD_TOOL]));
    const turn = await promise;
    assert.deepEqual(deltas, ['Whole answer.']);
    assert.deepEqual(turn.toolCalls, [{ id: 'c', name: 'layers_load', arguments: '{"path":"a"}' }]);
    assert.equal(turn.stopReason, 'tool_calls');
    assert.ok(turn.usage);
    assert.equal(own.capabilities().streaming, 'refused');
    assert.equal((await run(own, ask('y')).promise).text, 'Next.');
    assert.equal(server.requests[1]?.stream, false);
    assert.equal('stream_options' in (server.requests[1] ?? {}), false);
  });

  test('an exception thrown by onTextDelta surfaces as itself, not as a model outage', async () => {
    server.script([{ text: 'hello' }]);
    const promise = client.streamTurn(ask('x'), {
      signal: new AbortController().signal,
      onTextDelta: () => {
        throw new RangeError('renderer gone');
      },
    });
    await assert.rejects(promise, (e: unknown) => e instanceof RangeError && e.message === 'renderer gone');
  });

  test('an exhausted script still answers, with a recognisable text', async () => {
    const turn = await run(client, ask('anything')).promise;
    assert.equal(turn.text, NO_MORE_STEPS_TEXT);
    assert.equal(server.requests.length, 1);
  });

  test('Stop mid-stream rejects promptly with an aborted ModelError', async () => {
    server.script([{ text: 'x'.repeat(200), chunkSize: 1, delayMs: 40 }]);
    const controller = new AbortController();
    const deltas: string[] = [];
    let stoppedAt = 0;
    const promise = client.streamTurn(ask('long answer'), {
      signal: controller.signal,
      onTextDelta: (d) => {
        deltas.push(d);
        if (deltas.length === 3) {
          stoppedAt = Date.now();
          controller.abort();
        }
      },
    });
    await assert.rejects(
      promise,
      isModelError((e) => {
        assert.equal(e.aborted, true);
        assert.equal(e.message, 'Stopped');
      }),
    );
    assert.ok(Date.now() - stoppedAt < 500, `took ${Date.now() - stoppedAt} ms`);
    assert.ok(deltas.length < 10);
  });

  test('Stop before the answer starts rejects promptly too', async () => {
    server.script([{ status: 500, delayMs: 3000 }]);
    const controller = new AbortController();
    const { promise } = run(client, ask('slow'), controller.signal);
    await server.waitForRequests(1, 2000);
    const t0 = Date.now();
    controller.abort();
    await assert.rejects(
      promise,
      isModelError((e) => assert.equal(e.aborted, true)),
    );
    assert.ok(Date.now() - t0 < 500, `took ${Date.now() - t0} ms`);
  });

  test('an already-aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      run(client, ask('x'), controller.signal).promise,
      isModelError((e) => assert.equal(e.aborted, true)),
    );
    assert.equal(server.requests.length, 0);
  });

  for (const [status, message] of [
    [401, 'Incorrect API key provided: sk-wrong.'],
    [429, 'Rate limit reached for requests.'],
    [500, 'The server had an error while processing your request.'],
  ] as const) {
    test(`HTTP ${status} becomes a ModelError with the status and the body's message`, async () => {
      server.script([{ status, errorBody: { error: { message, type: 'x', param: null, code: null } } }]);
      await assert.rejects(
        run(client, ask('x')).promise,
        isModelError((e) => {
          assert.equal(e.status, status);
          assert.equal(e.message, message);
          assert.equal(e.aborted, false);
        }),
      );
    });
  }

  test('a key the server quotes back in its error is cut out of the message', async () => {
    const keyed = createOpenAiChatClient({ baseUrl: server.url, model: 'm', apiKey: 'sk-wrong-123', retry: NO_RETRY });
    server.script([
      {
        status: 401,
        errorBody: {
          error: {
            message: 'Incorrect API key provided: sk-wrong-123. You can find your API key at …',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
      },
    ]);
    await assert.rejects(
      run(keyed, ask('x')).promise,
      isModelError((e) => {
        assert.equal(e.status, 401);
        assert.equal(e.message, 'Incorrect API key provided: [key]. You can find your API key at …');
      }),
    );
  });

  test('an HTTP error without a usable body falls back to the status text', async () => {
    server.script([{ status: 503, errorBody: {} }]);
    await assert.rejects(
      run(client, ask('x')).promise,
      isModelError((e) => {
        assert.equal(e.status, 503);
        assert.equal(e.message, '503 Service Unavailable');
      }),
    );
  });

  for (const cut of [0, 3]) {
    test(`a stream cut after ${cut} chunk(s) is an early end, not a turn`, async () => {
      server.script([
        { text: 'This will not finish.', toolCalls: [{ name: 'layers_load', arguments: { path: 'p' } }], cutAfterChunks: cut },
      ]);
      await assert.rejects(
        run(client, ask('x', [LOAD_TOOL])).promise,
        isModelError((e) => {
          assert.match(e.message, /^The model's stream ended early/);
          assert.equal(e.status, null);
          assert.equal(e.aborted, false);
        }),
      );
    });
  }

  test('a refused connection says the endpoint could not be reached, and where', async () => {
    const gone = await startScriptedModelServer();
    const url = gone.url;
    await gone.close();
    const orphan = createOpenAiChatClient({ baseUrl: url, model: 'm', apiKey: null });
    await assert.rejects(
      run(orphan, ask('x')).promise,
      isModelError((e) => {
        assert.match(e.message, /could not be reached at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
        assert.match(e.message, /ECONNREFUSED/);
        assert.equal(e.status, null);
        assert.equal(e.aborted, false);
      }),
    );
  });
});
