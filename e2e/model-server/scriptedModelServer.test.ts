/**
 * The scripted model server's own wire format, read with plain fetch and a line split
 * (no app code), so the server is checked independently of the client it tests.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NO_MORE_STEPS_TEXT, startScriptedModelServer, type ScriptedModelServer } from './scriptedModelServer.js';

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

const chat = (server: ScriptedModelServer, body: object) =>
  fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function streamed(server: ScriptedModelServer, body: object = {}) {
  const response = await chat(server, { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true, ...body });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await response.text();
  const events = text.split('\n\n').filter((e) => e !== '');
  assert.ok(events.every((e) => e.startsWith('data: ')), 'every event is a single data line');
  const payloads = events.map((e) => e.slice('data: '.length));
  const done = payloads.at(-1) === '[DONE]';
  const chunks = payloads.filter((p) => p !== '[DONE]').map((p) => JSON.parse(p) as Chunk);
  return { chunks, done };
}

describe('scripted model server', () => {
  let server: ScriptedModelServer;
  before(async () => {
    server = await startScriptedModelServer();
  });
  beforeEach(() => server.reset());
  after(() => server.close());

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
    server.script([{ toolCalls: [{ name: 'layers_load', arguments: args, id: 'call_a' }, { name: 'inspect_list_layers', arguments: '{}' }] }]);
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
    assert.deepEqual(chunks.slice(1, -1).map((c) => c.choices[0]?.delta.content), ['🌍', '🌍', '🌍']);
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
    assert.equal(await text([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]), 'saw 2 messages');
    assert.equal(await text([]), NO_MORE_STEPS_TEXT);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(server.requests[1]?.messages, [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]);
  });

  test('a step that throws answers 500 with the reason instead of hanging', async () => {
    server.script([() => { throw new Error('bad script'); }]);
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
