/**
 * The scripted model server's own wire format, read with plain fetch and a line split
 * (no app code), so the server is checked independently of the client it tests.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NO_MORE_STEPS_TEXT, type ScriptedModelServer } from './scriptedModelServer.js';
import { scriptedServerSuite } from './testing/scriptedServerSuite.js';

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    delta: {
      role?: string;
      content?: string;
      tool_calls?: { index: number; id?: string; type?: string; function: { name?: string; arguments: string } }[];
    };
    finish_reason: string | null;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

const post = (server: ScriptedModelServer, path: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const chat = (server: ScriptedModelServer, body: object) => post(server, '/chat/completions', body);

async function streamed(server: ScriptedModelServer, body: object = {}) {
  const response = await chat(server, { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true, ...body });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await response.text();
  const events = text.split('\n\n').filter((e) => e !== '');
  assert.ok(
    events.every((e) => e.startsWith('data: ')),
    'every event is a single data line',
  );
  const payloads = events.map((e) => e.slice('data: '.length));
  const done = payloads.at(-1) === '[DONE]';
  const chunks = payloads.filter((p) => p !== '[DONE]').map((p) => JSON.parse(p) as Chunk);
  return { chunks, done };
}

describe('scripted model server', () => {
  let server: ScriptedModelServer;
  scriptedServerSuite((started) => (server = started), { resetEachTest: true });

  test('listens on loopback and gives a /v1 base URL', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal(server.url, `http://127.0.0.1:${server.port}/v1`);
  });

  test('streams text: role chunk, content pieces of chunkSize, stop, usage, [DONE]', async () => {
    server.script([{ text: 'Hello, map!', chunkSize: 4 }]);
    const { chunks, done } = await streamed(server, { stream_options: { include_usage: true } });
    assert.equal(done, true);
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0]?.id && c.model === 'm'));
    assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant');
    const contents = chunks.slice(1, -2).map((c) => c.choices[0]?.delta.content);
    assert.deepEqual(contents, ['Hell', 'o, m', 'ap!']);
    assert.equal(chunks.at(-2)?.choices[0]?.finish_reason, 'stop');
    const usage = chunks.at(-1);
    assert.deepEqual(usage?.choices, []);
    assert.ok(usage?.usage && usage.usage.total_tokens === usage.usage.prompt_tokens + usage.usage.completion_tokens);
  });

  test('no usage chunk unless stream_options.include_usage', async () => {
    server.script([{ text: 'x' }]);
    const { chunks } = await streamed(server);
    assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'stop');
    assert.ok(chunks.every((c) => c.usage === null));
  });

  test('tool calls: a start delta with id, type and name, then argument fragments; default 8 characters', async () => {
    const args = { path: 'rivers.gpkg', layer: 'rivers' };
    server.script([
      {
        toolCalls: [
          { name: 'layers_load', arguments: args, id: 'call_a' },
          { name: 'inspect_list_layers', arguments: '{}' },
        ],
      },
    ]);
    const { chunks, done } = await streamed(server);
    assert.equal(done, true);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const starts = calls.filter((c) => c.id !== undefined);
    assert.deepEqual(
      starts.map((s) => [s.index, s.type, s.function.name, s.function.arguments]),
      [
        [0, 'function', 'layers_load', ''],
        [1, 'function', 'inspect_list_layers', ''],
      ],
    );
    assert.equal(starts[0]?.id, 'call_a');
    assert.match(starts[1]?.id ?? '', /^call_scripted_\d+$/);
    const fragments = calls.filter((c) => c.index === 0 && c.id === undefined).map((c) => c.function.arguments);
    assert.ok(fragments.every((f) => f.length <= 8) && fragments.length === Math.ceil(JSON.stringify(args).length / 8));
    assert.deepEqual(JSON.parse(fragments.join('')), args);
    assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'tool_calls');
  });

  test('pieces never split a surrogate pair', async () => {
    server.script([{ text: '🌍🌍🌍', chunkSize: 1 }]);
    const { chunks } = await streamed(server);
    assert.deepEqual(
      chunks.slice(1, -1).map((c) => c.choices[0]?.delta.content),
      ['🌍', '🌍', '🌍'],
    );
  });

  test('without stream:true it answers one chat.completion', async () => {
    server.script([{ text: '', toolCalls: [{ name: 'f', arguments: { a: 1 }, id: 'c1' }] }]);
    const response = await chat(server, { model: 'm', messages: [] });
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as {
      object: string;
      choices: { message: { role: string; content: string | null; tool_calls: unknown[] }; finish_reason: string }[];
      usage: object;
    };
    assert.equal(body.object, 'chat.completion');
    assert.deepEqual(body.choices[0]?.message.tool_calls, [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }]);
    assert.equal(body.choices[0]?.message.content, null);
    assert.equal(body.choices[0]?.finish_reason, 'tool_calls');
    assert.ok(body.usage);
  });

  test('HTTP errors: the scripted body, or an OpenAI-shaped default', async () => {
    server.script([{ status: 429, errorBody: { error: { message: 'slow down' } } }, { status: 401 }]);
    const first = await chat(server, { messages: [], stream: true });
    assert.equal(first.status, 429);
    assert.deepEqual(await first.json(), { error: { message: 'slow down' } });
    const second = await chat(server, { messages: [], stream: true });
    assert.equal(second.status, 401);
    const body = (await second.json()) as { error: { message: string; code: string } };
    assert.equal(body.error.code, 'invalid_api_key');
  });

  test('cutAfterChunks drops the connection: no finish, no [DONE]', async () => {
    server.script([{ text: 'abcdefghijklmnop', chunkSize: 2, cutAfterChunks: 3 }]);
    const response = await chat(server, { messages: [], stream: true });
    const reader = response.body!.getReader();
    let text = '';
    await assert.rejects(async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    });
    const events = text.split('\n\n').filter((e) => e !== '');
    assert.equal(events.length, 3);
    assert.ok(!text.includes('[DONE]') && !text.includes('"finish_reason":"stop"'));
  });

  test('queue: script replaces, push appends, function steps see the body, exhaustion is announced', async () => {
    server.script([{ text: 'dropped' }]);
    server.script([{ text: 'one' }]);
    server.push((body) => ({ text: `saw ${body.messages.length} messages` }));
    assert.equal(server.pendingSteps, 2);
    const text = async (messages: object[]) => {
      const { chunks } = await streamed(server, { messages });
      return chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    };
    assert.equal(await text([]), 'one');
    assert.equal(
      await text([
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ]),
      'saw 2 messages',
    );
    assert.equal(await text([]), NO_MORE_STEPS_TEXT);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(server.requests[1]?.messages, [
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
  });

  test('a responder answers what the queue does not, after the queued steps, until reset', async () => {
    server.script([{ text: 'queued' }]);
    server.respond((body) => ({ text: `responder saw ${body.messages.length}` }));
    const text = async () => (await streamed(server)).chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(await text(), 'queued');
    assert.equal(await text(), 'responder saw 1');
    assert.equal(await text(), 'responder saw 1', 'it is not used up');
    server.reset();
    assert.equal(await text(), NO_MORE_STEPS_TEXT);
  });

  test('a step that throws answers 500 with the reason instead of hanging', async () => {
    server.script([
      () => {
        throw new Error('bad script');
      },
    ]);
    const response = await chat(server, { messages: [], stream: true });
    assert.equal(response.status, 500);
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /bad script/);
  });

  test('waitForRequests resolves on arrival and rejects on timeout; reset keeps the same array', async () => {
    const requests = server.requests;
    const waiting = server.waitForRequests(2, 2000);
    server.script([{ text: 'a' }, { text: 'b' }]);
    await streamed(server);
    await streamed(server);
    assert.equal((await waiting).length, 2);
    await assert.rejects(server.waitForRequests(5, 50), /waited 50 ms for 5 request\(s\), got 2/);
    server.reset();
    assert.equal(server.requests, requests);
    assert.equal(requests.length, 0);
    assert.equal(server.pendingSteps, 0);
  });

  test('a client hanging up mid-stream does not disturb the server', async () => {
    server.script([{ text: 'x'.repeat(100), chunkSize: 1, delayMs: 20 }, { text: 'after' }]);
    const controller = new AbortController();
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [], stream: true }),
      signal: controller.signal,
    });
    await response.body!.getReader().read();
    controller.abort();
    const { chunks } = await streamed(server);
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'after');
  });

  test('GET /v1/models lists one model; unknown routes are 404 JSON', async () => {
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    assert.equal(models.data[0]?.id, 'scripted-model');
    const missing = await fetch(`${server.url}/nope`);
    assert.equal(missing.status, 404);
    assert.ok(((await missing.json()) as { error: object }).error);
  });
});

describe('scripted model server: Anthropic Messages, reasoning shapes and endpoint quirks', () => {
  let server: ScriptedModelServer;
  scriptedServerSuite((started) => (server = started), { resetEachTest: true });

  /** `event:` name and parsed `data:` of each SSE event, by a plain split. */
  async function anthropicEvents(body: object) {
    const response = await post(server, '/messages', {
      model: 'claude',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: true,
      ...body,
    });
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    return (await response.text())
      .split('\n\n')
      .filter((e) => e !== '')
      .map((e) => {
        const [eventLine, dataLine] = e.split('\n');
        return {
          event: eventLine!.replace(/^event: /, ''),
          // Loosely typed on purpose: wire objects of many shapes, read field by field.
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          data: JSON.parse(dataLine!.replace(/^data: /, '')) as Record<string, any>,
        };
      });
  }

  test('streams thinking (with signature_delta), text and tool_use (with input_json_delta) in Anthropic events', async () => {
    server.script([
      {
        reasoning: 'plan',
        signature: 'sig',
        text: 'Hi.',
        toolCalls: [{ name: 'weather', arguments: { location: 'Oslo' }, id: 'call_1' }],
        chunkSize: 3,
      },
    ]);
    const events = await anthropicEvents({});
    assert.ok(
      events.every((e) => e.event === e.data.type),
      'the event name repeats the data type',
    );
    assert.equal(events[0]?.event, 'message_start');
    assert.equal(events.at(-1)?.event, 'message_stop');
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta);
    assert.equal(
      deltas
        .filter((d) => d.type === 'thinking_delta')
        .map((d) => d.thinking)
        .join(''),
      'plan',
    );
    assert.deepEqual(
      deltas.filter((d) => d.type === 'signature_delta').map((d) => d.signature),
      ['sig'],
    );
    assert.equal(
      deltas
        .filter((d) => d.type === 'text_delta')
        .map((d) => d.text)
        .join(''),
      'Hi.',
    );
    const json = deltas.filter((d) => d.type === 'input_json_delta').map((d) => d.partial_json);
    assert.equal(json[0], '', 'opens with an empty fragment, like the recordings');
    assert.deepEqual(JSON.parse(json.join('')), { location: 'Oslo' });
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block.type);
    assert.deepEqual(starts, ['thinking', 'text', 'tool_use']);
    assert.equal(events.find((e) => e.event === 'message_delta')?.data.delta.stop_reason, 'tool_use');
    assert.deepEqual(server.requestWires, ['anthropic']);
  });

  test('answers a whole Message without stream, and Anthropic-shaped errors', async () => {
    server.script([{ text: 'Plain.' }, { status: 529 }]);
    const message = (await (await post(server, '/messages', { model: 'c', messages: [] })).json()) as {
      type: string;
      content: { type: string; text: string }[];
      stop_reason: string;
    };
    assert.equal(message.type, 'message');
    assert.deepEqual(message.content, [{ type: 'text', text: 'Plain.' }]);
    assert.equal(message.stop_reason, 'end_turn');
    const overloaded = await post(server, '/messages', { model: 'c', messages: [] });
    assert.equal(overloaded.status, 529);
    assert.deepEqual(((await overloaded.json()) as { error: { type: string } }).error.type, 'overloaded_error');
  });

  test('Chat Completions reasoning shapes: reasoning_content, reasoning, <think> in content', async () => {
    for (const [shape, field] of [
      ['reasoning_content', 'reasoning_content'],
      ['reasoning', 'reasoning'],
    ] as const) {
      server.script([{ reasoning: 'why', reasoningShape: shape, text: 'ok' }]);
      const text = await (await post(server, '/chat/completions', { messages: [], stream: true })).text();
      const deltas = text
        .split('\n\n')
        .filter((e) => e.startsWith('data: {'))
        .map((e) => JSON.parse(e.slice(6)).choices[0]?.delta ?? {});
      assert.equal(deltas.map((d: Record<string, string>) => d[field] ?? '').join(''), 'why');
    }
    server.script([{ reasoning: 'why', reasoningShape: 'think-tags', text: 'ok' }]);
    const whole = (await (await post(server, '/chat/completions', { messages: [] })).json()) as {
      choices: { message: { content: string } }[];
    };
    assert.equal(whole.choices[0]?.message.content, '<think>why</think>\n\nok');
  });

  test('quirks answer before any step is used: tools and stream refused, stream ignored, a key required', async () => {
    server.script([{ text: 'the step' }]);
    server.behave({ refuseTools: true, refuseStream: true });
    const tools = await post(server, '/chat/completions', {
      model: 'gemma',
      messages: [],
      tools: [{ type: 'function', function: { name: 'x' } }],
    });
    assert.equal(tools.status, 400);
    assert.match(((await tools.json()) as { error: { message: string } }).error.message, /gemma does not support tools/);
    const stream = await post(server, '/chat/completions', { messages: [], stream: true });
    assert.equal(((await stream.json()) as { error: { param: string } }).error.param, 'stream');
    assert.equal(server.pendingSteps, 1);
    server.behave({ refuseTools: false, refuseStream: false, ignoreStream: true, requireKey: 'k1' });
    assert.equal((await post(server, '/chat/completions', { messages: [], stream: true })).status, 401);
    const ignored = await post(server, '/chat/completions', { messages: [], stream: true }, { Authorization: 'Bearer k1' });
    assert.match(ignored.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(((await ignored.json()) as { object: string }).object, 'chat.completion');
    assert.equal(server.requests.length, 4, 'refused requests are recorded too');
  });

  test('raw replies are sent byte for byte, in slices if asked; Retry-After goes with an error', async () => {
    const body = 'data: {"x":"é"}\n\n';
    server.script([
      { raw: { body, contentType: 'text/event-stream' }, rawSliceBytes: 1 },
      { status: 429, retryAfter: 7 },
    ]);
    assert.equal(await (await post(server, '/chat/completions', { messages: [] })).text(), body);
    const limited = await post(server, '/chat/completions', { messages: [] });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '7');
  });

  test('models are listed in the Anthropic shape when asked with anthropic-version', async () => {
    server.setModels(['claude-a']);
    const listed = (await (await fetch(`${server.url}/models`, { headers: { 'anthropic-version': '2023-06-01' } })).json()) as {
      data: { type: string; id: string }[];
      has_more: boolean;
    };
    assert.deepEqual(
      listed.data.map((m) => [m.type, m.id]),
      [['model', 'claude-a']],
    );
    assert.equal(listed.has_more, false);
  });
});

describe('scripted model server CLI', () => {
  test('prints its URL first and serves the script file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scripted-cli-'));
    const script = join(dir, 'replies.json');
    writeFileSync(script, JSON.stringify([{ text: 'from the file' }]));
    const cli = join(dirname(fileURLToPath(import.meta.url)), 'cli.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--script', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (data: Buffer) => {
          out += data.toString();
          const line = out.split('\n')[0];
          if (out.includes('\n') && line) resolve(line.trim());
        });
        child.once('exit', (code) => reject(new Error(`cli exited with ${code}: ${out}`)));
      });
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const response = await fetch(`${url}/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [] }) });
      const body = (await response.json()) as { choices: { message: { content: string } }[] };
      assert.equal(body.choices[0]?.message.content, 'from the file');
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
