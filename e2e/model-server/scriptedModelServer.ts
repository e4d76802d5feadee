import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicErrorBody, anthropicEvents, anthropicMessage } from './anthropicReply.js';
import { refusalBody, type EndpointBehaviour, type Wire } from './endpointBehaviour.js';
import {
  errorBodyOf,
  estimateTokens,
  NO_MORE_STEPS_TEXT,
  replyChunks,
  replyCompletion,
  type ReceivedRequest,
  type ReplyContext,
  type ScriptReply,
  type ScriptStep,
} from './scriptedReply.js';

export type { ReceivedMessage, ReceivedRequest, ScriptedToolCall, ScriptReply, ScriptStep } from './scriptedReply.js';
export type { EndpointBehaviour } from './endpointBehaviour.js';
export { NO_MORE_STEPS_TEXT } from './scriptedReply.js';

/**
 * A loopback server that speaks the real OpenAI Chat Completions (`POST /v1/chat/completions`)
 * and Anthropic Messages (`POST /v1/messages`) wire formats and answers from a per-test
 * script, so unit, integration and browser tests drive the whole app through the same
 * adapters a real model would use. Endpoint quirks (refusing `tools` or `stream`, ignoring
 * `stream`, wanting a key) are set with `behave()` and cost no script step.
 */
export interface ScriptedModelServer {
  /** Base URL to configure the app with, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  readonly port: number;
  /** Parsed JSON bodies of the completion requests received (both wires), in order. Same array across `reset()`. */
  readonly requests: ReceivedRequest[];
  /** Headers of those requests, index for index (to check `Authorization`, `x-api-key`). */
  readonly requestHeaders: IncomingHttpHeaders[];
  /** Which wire each request used, index for index. */
  readonly requestWires: Wire[];
  /** Steps not yet used. */
  readonly pendingSteps: number;
  /** Replaces the queue of replies. */
  script(steps: ScriptStep[]): void;
  /** Appends to the queue of replies. */
  push(...steps: ScriptStep[]): void;
  /**
   * Answers every request the queue does not (it is empty): a model written as a function of
   * the request, e.g. a good and a bad model for the scorecard probes. `null` removes it.
   */
  respond(responder: ((body: ReceivedRequest) => ScriptReply) | null): void;
  /** Sets how the endpoint behaves from now on (merged into the current behaviour). */
  behave(behaviour: EndpointBehaviour): void;
  /** Model ids `GET /v1/models` lists. */
  setModels(ids: string[]): void;
  /** Resolves with `requests` once at least `count` have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Forgets the queue, the recorded requests and the behaviour. */
  reset(): void;
  close(): Promise<void>;
}

export interface ScriptedModelServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const DEFAULT_MODELS = ['scripted-model'];

export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  let queue: ScriptStep[] = [];
  let behaviour: EndpointBehaviour = {};
  let responder: ((body: ReceivedRequest) => ScriptReply) | null = null;
  let models = [...DEFAULT_MODELS];
  const requests: ReceivedRequest[] = [];
  const requestHeaders: IncomingHttpHeaders[] = [];
  const requestWires: Wire[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  let completions = 0;
  let callIds = 0;

  function record(body: ReceivedRequest, headers: IncomingHttpHeaders, wire: Wire): void {
    requests.push(body);
    requestHeaders.push(headers);
    requestWires.push(wire);
    const ready = waiters.filter((w) => requests.length >= w.count);
    waiters = waiters.filter((w) => requests.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }

  const errorOf = (wire: Wire, reply: ScriptReply, status: number) =>
    wire === 'anthropic' ? anthropicErrorBody(reply, status) : errorBodyOf(reply, status);

  async function handleCompletion(wire: Wire, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: ReceivedRequest;
    try {
      body = JSON.parse(await readBody(req)) as ReceivedRequest;
    } catch {
      sendJson(res, 400, errorOf(wire, { errorBody: undefined }, 400));
      return;
    }
    record(body, req.headers, wire);

    // Endpoint quirks first: they answer before any step is used, as a real server would.
    if (behaviour.requireKey !== undefined && !hasKey(req.headers, wire, behaviour.requireKey)) {
      sendJson(res, 401, errorOf(wire, {}, 401));
      return;
    }
    const refusal = refusalBody(wire, behaviour, body);
    if (refusal) {
      sendJson(res, 400, refusal);
      return;
    }

    const step = queue.shift() ?? responder ?? undefined;
    let reply: ScriptReply;
    try {
      reply = step === undefined ? { text: NO_MORE_STEPS_TEXT } : typeof step === 'function' ? step(body) : step;
    } catch (error) {
      // A broken script must be visible in the test, not a hang.
      sendJson(
        res,
        500,
        errorOf(wire, { errorBody: { error: { message: `scripted step threw: ${String(error)}`, type: 'server_error' } } }, 500),
      );
      return;
    }

    completions += 1;
    const ctx: ReplyContext = {
      completionId: `chatcmpl-scripted-${completions}`,
      model: typeof body.model === 'string' ? body.model : 'scripted-model',
      created: Math.floor(Date.now() / 1000),
      nextCallId: () => `call_scripted_${++callIds}`,
      promptTokens: estimateTokens(JSON.stringify(body.messages ?? [])),
    };
    const closed = closedSignal(res);

    if (reply.raw) {
      await pause(reply.delayMs, closed);
      if (!closed.closed) await sendRaw(res, reply.raw, reply.rawSliceBytes ?? 0, closed);
      return;
    }
    if (reply.status !== undefined && reply.status >= 400) {
      await pause(reply.delayMs, closed);
      const headers: Record<string, string> = { ...JSON_HEADERS };
      if (reply.retryAfter !== undefined) headers['Retry-After'] = String(reply.retryAfter);
      if (!closed.closed) res.writeHead(reply.status, headers).end(JSON.stringify(errorOf(wire, reply, reply.status)));
      return;
    }
    if (body.stream !== true || reply.ignoreStream || behaviour.ignoreStream) {
      await pause(reply.delayMs, closed);
      if (!closed.closed) sendJson(res, 200, wire === 'anthropic' ? anthropicMessage(reply, ctx) : replyCompletion(reply, ctx));
      return;
    }

    const events =
      wire === 'anthropic'
        ? anthropicEvents(reply, ctx).map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`)
        : [
            ...replyChunks(reply, ctx, body.stream_options?.include_usage === true).map((c) => `data: ${JSON.stringify(c)}\n\n`),
            'data: [DONE]\n\n',
          ];
    // Chat Completions' `[DONE]` is not a chunk: a cut after every chunk still lacks it.
    const countable = wire === 'anthropic' ? events.length : events.length - 1;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    // Headers first, so even a cut before any event reaches the client as a started stream.
    res.flushHeaders();
    for (let i = 0; i < events.length; i += 1) {
      if (reply.cutAfterChunks !== undefined && i >= Math.min(reply.cutAfterChunks, countable)) {
        // Abrupt end: the socket closes without the terminating HTTP chunk, like a crashed server.
        res.socket?.destroy();
        return;
      }
      if (i > 0 && i < countable) await pause(reply.delayMs, closed);
      if (closed.closed) return;
      await write(res, events[i]!, closed);
    }
    res.end();
  }

  function handleModels(req: IncomingMessage, res: ServerResponse): void {
    if (
      behaviour.requireKey !== undefined &&
      !hasKey(req.headers, req.headers['anthropic-version'] ? 'anthropic' : 'openai', behaviour.requireKey)
    ) {
      sendJson(res, 401, { error: { message: 'Scripted: a key is required to list models.', type: 'invalid_request_error' } });
      return;
    }
    if (req.headers['anthropic-version']) {
      const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
      sendJson(res, 200, { data, has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null });
      return;
    }
    sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'mapwright-tests' })) });
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const wire: Wire | null = /\/chat\/completions\/?$/.test(path) ? 'openai' : /\/messages\/?$/.test(path) ? 'anthropic' : null;
    if (req.method === 'POST' && wire) {
      handleCompletion(wire, req, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: 'server_error', param: null, code: null } });
        else res.destroy();
      });
      return;
    }
    if (req.method === 'GET' && /\/models\/?$/.test(path)) {
      handleModels(req, res);
      return;
    }
    sendJson(res, 404, { error: { message: `No route ${req.method} ${path}`, type: 'invalid_request_error', param: null, code: null } });
  });
  // A client hanging up mid-stream is expected (Stop tests); never let it crash the test run.
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    requestHeaders,
    requestWires,
    get pendingSteps() {
      return queue.length;
    },
    script(steps) {
      queue = [...steps];
    },
    push(...steps) {
      queue.push(...steps);
    },
    respond(next) {
      responder = next;
    },
    behave(next) {
      behaviour = { ...behaviour, ...next };
    },
    setModels(ids) {
      models = [...ids];
    },
    waitForRequests(count, timeoutMs = 5000) {
      if (requests.length >= count) return Promise.resolve(requests);
      return new Promise((resolve, reject) => {
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(new Error(`scripted model server: waited ${timeoutMs} ms for ${count} request(s), got ${requests.length}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    reset() {
      queue = [];
      behaviour = {};
      responder = null;
      models = [...DEFAULT_MODELS];
      requests.length = 0;
      requestHeaders.length = 0;
      requestWires.length = 0;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive and half-streamed connections would hold close() open.
        server.closeAllConnections();
      });
    },
  };
}

function hasKey(headers: IncomingHttpHeaders, wire: Wire, key: string): boolean {
  return wire === 'anthropic' ? headers['x-api-key'] === key : headers.authorization === `Bearer ${key}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, JSON_HEADERS);
  res.end(JSON.stringify(body));
}

/** A recorded body, byte for byte, optionally a few bytes per write. */
async function sendRaw(res: ServerResponse, raw: NonNullable<ScriptReply['raw']>, slice: number, closed: ClosedFlag): Promise<void> {
  const bytes = typeof raw.body === 'string' ? Buffer.from(raw.body, 'utf8') : Buffer.from(raw.body);
  res.writeHead(raw.status ?? 200, { 'Content-Type': raw.contentType });
  if (slice <= 0) {
    res.end(bytes);
    return;
  }
  for (let offset = 0; offset < bytes.length && !closed.closed; offset += slice) {
    await write(res, bytes.subarray(offset, offset + slice), closed);
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

interface ClosedFlag {
  closed: boolean;
  /** Resolves when the client goes away, so pauses end early. */
  readonly whenClosed: Promise<void>;
}

function closedSignal(res: ServerResponse): ClosedFlag {
  const flag = { closed: false } as { closed: boolean; whenClosed: Promise<void> };
  flag.whenClosed = new Promise<void>((resolve) => {
    res.once('close', () => {
      flag.closed = true;
      resolve();
    });
  });
  return flag;
}

function pause(ms: number | undefined, closed: ClosedFlag): Promise<void> {
  if (!ms || ms <= 0 || closed.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void closed.whenClosed.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Waits until the bytes are handed to the OS, so a following cut keeps everything written. */
function write(res: ServerResponse, data: string | Uint8Array, closed: ClosedFlag): Promise<void> {
  return new Promise((resolve) => {
    res.write(data, () => resolve());
    // A write to a connection the client dropped may never report back.
    void closed.whenClosed.then(() => resolve());
  });
}
