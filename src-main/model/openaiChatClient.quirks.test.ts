/**
 * Answers no well-behaved server gives but misconfigured ones do: the client must turn
 * each into a turn or a readable ModelError, never hang or crash.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ModelError } from './modelClient.js';
import { createOpenAiChatClient } from './openaiChatClient.js';

const ANSWERS: Record<string, { status: number; type: string; body: string }> = {
  html: { status: 200, type: 'text/html', body: '<!doctype html><title>Open WebUI</title>' },
  'json-error': { status: 200, type: 'application/json', body: '{"error":{"message":"model is loading","code":503}}' },
  'sse-as-text': {
    status: 200,
    type: 'text/plain',
    body: 'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
  },
  empty: { status: 200, type: 'application/json', body: '' },
  'ollama-native-error': { status: 400, type: 'application/json', body: '{"error":"model does not support tools"}' },
  'plain-error': { status: 502, type: 'text/plain', body: 'upstream connect error' },
};

describe('OpenAI chat client: odd answers', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      const answer = ANSWERS[(req.url ?? '').split('/')[1] ?? ''];
      req.resume();
      if (!answer) return void res.writeHead(404).end();
      res.writeHead(answer.status, { 'Content-Type': answer.type }).end(answer.body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  const turnFrom = (name: string) =>
    createOpenAiChatClient({ baseUrl: `${base}/${name}/v1`, model: 'm' }).streamTurn(
      { messages: [{ role: 'user', content: 'hi' }], tools: [] },
      { signal: new AbortController().signal, onTextDelta: () => undefined },
    );
  const rejectsWith = (name: string, message: RegExp, status: number | null) =>
    assert.rejects(turnFrom(name), (e: unknown) => {
      assert.ok(e instanceof ModelError);
      assert.match(e.message, message);
      assert.equal(e.status, status);
      return true;
    });

  test('an HTML page (a URL missing /v1) says to check the URL', () => rejectsWith('html', /text\/html.*Check the URL/, null));
  test('a JSON error with status 200 is still an error', () => rejectsWith('json-error', /^model is loading$/, 503));
  test('SSE under the wrong content type is still read', async () => assert.equal((await turnFrom('sse-as-text')).text, 'ok'));
  test('an empty body is an error', () => rejectsWith('empty', /empty response/, null));
  test('an Ollama-native error string', () => rejectsWith('ollama-native-error', /^model does not support tools$/, 400));
  test('a plain-text error from a proxy', () => rejectsWith('plain-error', /^upstream connect error$/, 502));
});
