/**
 * Keys never follow a redirect to another origin, on either wire. `front` is the address
 * the person configured: it redirects (to itself or to `other`, a different port and so a
 * different origin) and passes everything else through to the scripted model server.
 * `other` records every request it receives. All on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { createAnthropicClient } from './anthropicClient.js';
import { ModelError, type ModelClient, type TurnRequest } from './modelClient.js';
import { createOpenAiChatClient } from './openaiChatClient.js';
import { NO_RETRY } from './retryPolicy.js';

const KEY = 'sk-test-secret-0123456789';

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

interface Front {
  origin: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A loopback server that redirects by path prefix and otherwise proxies to the scripted server. */
async function startFront(upstreamPort: number, redirect: (path: string) => { status: number; location: string } | null): Promise<Front> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ method: req.method ?? '', path, headers: req.headers });
    const to = redirect(path);
    if (to) {
      req.resume();
      res.writeHead(to.status, { Location: to.location, 'Content-Type': 'text/plain' }).end('moved');
      return;
    }
    const upstream = httpRequest({ host: '127.0.0.1', port: upstreamPort, path, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ask: TurnRequest = {
  messages: [
    { role: 'system', content: 'You are Mapwright.' },
    { role: 'user', content: 'hi' },
  ],
  tools: [],
};

async function turnOf(client: ModelClient) {
  const deltas: string[] = [];
  const turn = await client.streamTurn(ask, { signal: new AbortController().signal, onTextDelta: (d) => deltas.push(d) });
  return { turn, deltas };
}

async function failureOf(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`);
  return error;
}

const WIRES = [
  {
    wire: 'openai',
    keyHeader: 'authorization',
    keyValue: `Bearer ${KEY}`,
    client: (baseUrl: string) => createOpenAiChatClient({ baseUrl, model: 'scripted-model', apiKey: KEY, retry: NO_RETRY }),
    completionPath: '/v1/chat/completions',
  },
  {
    wire: 'anthropic',
    keyHeader: 'x-api-key',
    keyValue: KEY,
    client: (baseUrl: string) => createAnthropicClient({ baseUrl, model: 'scripted-model', apiKey: KEY, retry: NO_RETRY }),
    completionPath: '/v1/messages',
  },
] as const;

describe('model requests and redirects', () => {
  let scripted: ScriptedModelServer;
  let front: Front;
  let other: Front;

  before(async () => {
    scripted = await startScriptedModelServer();
    other = await startFront(scripted.port, () => null);
    front = await startFront(scripted.port, (path) => {
      const prefixed = /^\/(moved|moved302|away|away302|leak|loop)(\/.*)$/.exec(path);
      if (!prefixed) return null;
      const [, kind, rest] = prefixed;
      switch (kind) {
        case 'moved':
          return { status: 307, location: rest! };
        case 'moved302':
          return { status: 302, location: rest! };
        case 'away':
          return { status: 307, location: `${other.origin}${rest}` };
        case 'away302':
          return { status: 302, location: `${other.origin}${rest}` };
        case 'leak':
          return { status: 308, location: `${other.origin}${rest}?key=${KEY}` };
        default:
          return { status: 307, location: path };
      }
    });
  });
  beforeEach(() => {
    scripted.reset();
    front.seen.length = 0;
    other.seen.length = 0;
  });
  after(async () => {
    await front.close();
    await other.close();
    await scripted.close();
  });

  const noKeyAtOther = (keyHeader: string) => {
    assert.equal(other.seen.length, 0, 'nothing at all reaches the other origin');
    for (const request of [...other.seen, ...scripted.requestHeaders.map((headers) => ({ headers }))]) {
      assert.equal(request.headers['x-api-key'], undefined);
      assert.equal(request.headers.authorization, undefined);
    }
    assert.equal(scripted.requests.length, 0);
    // The configured origin did get the key: the redirect came from it.
    assert.ok(front.seen.length > 0 && front.seen.every((s) => s.headers[keyHeader] !== undefined));
  };

  for (const w of WIRES) {
    describe(`${w.wire} wire`, () => {
      test('a 307 to another origin is refused with a readable error and sends it nothing', async () => {
        scripted.script([{ text: 'never' }]);
        const error = await failureOf(turnOf(w.client(`${front.origin}/away/v1`)));
        assert.equal(
          error.message,
          `The model endpoint redirected to another origin (${other.origin}); Mapwright does not send your key there. Set the address to ${other.origin}/v1 if you trust it.`,
        );
        assert.equal(error.status, null);
        noKeyAtOther(w.keyHeader);
        assert.equal(front.seen.length, 1);
      });

      test('a 302 of the model list to another origin is refused too', async () => {
        const error = await failureOf(w.client(`${front.origin}/away302/v1`).listModels(new AbortController().signal));
        assert.match(error.message, /redirected to another origin/);
        noKeyAtOther(w.keyHeader);
      });

      test('the key is cut out of the error when the redirect quotes it', async () => {
        const error = await failureOf(turnOf(w.client(`${front.origin}/leak/v1`)));
        assert.ok(!error.message.includes(KEY), error.message);
        noKeyAtOther(w.keyHeader);
      });

      test('a same-origin redirect is followed with the key, and the stream still streams', async () => {
        scripted.script([{ text: 'Hello from behind a redirect.', chunkSize: 4 }]);
        const { turn, deltas } = await turnOf(w.client(`${front.origin}/moved/v1`));
        assert.equal(turn.text, 'Hello from behind a redirect.');
        assert.ok(deltas.length > 1, 'text arrived in pieces');
        assert.deepEqual(
          front.seen.map((s) => [s.method, s.path]),
          [
            ['POST', `/moved${w.completionPath}`],
            ['POST', w.completionPath],
          ],
        );
        for (const s of front.seen) assert.equal(s.headers[w.keyHeader], w.keyValue);
        assert.equal(scripted.requestHeaders[0]![w.keyHeader], w.keyValue);
        // The body went through the 307 untouched.
        assert.match(JSON.stringify(scripted.requests[0]!.messages.at(-1)), /"hi"/);
        assert.equal(scripted.requests[0]!.stream, true);
        assert.equal(other.seen.length, 0);
      });

      test('a same-origin 302 of the model list is followed', async () => {
        scripted.setModels(['a-model', 'b-model']);
        const models = await w.client(`${front.origin}/moved302/v1`).listModels(new AbortController().signal);
        assert.deepEqual(models, ['a-model', 'b-model']);
        assert.equal(front.seen.length, 2);
        for (const s of front.seen) assert.equal(s.headers[w.keyHeader], w.keyValue);
      });

      test('more than three redirects are refused', async () => {
        const error = await failureOf(turnOf(w.client(`${front.origin}/loop/v1`)));
        assert.match(error.message, /redirected more than 3 times/);
        assert.equal(front.seen.length, 4);
      });
    });
  }

  test('without a key the refusal says what is kept instead', async () => {
    const client = createOpenAiChatClient({ baseUrl: `${front.origin}/away/v1`, model: 'scripted-model', apiKey: null, retry: NO_RETRY });
    const error = await failureOf(turnOf(client));
    assert.match(
      error.message,
      /another origin \(http:\/\/127\.0\.0\.1:\d+\); Mapwright sends your conversation only to the address you set/,
    );
    assert.equal(other.seen.length, 0);
  });
});
