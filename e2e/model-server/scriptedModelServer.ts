import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
export { NO_MORE_STEPS_TEXT } from './scriptedReply.js';

/**
 * A loopback server that speaks the real OpenAI Chat Completions wire format and answers
 * from a per-test script, so unit, integration and browser tests drive the whole app
 * through the same adapter a real model would use.
 */
export interface ScriptedModelServer {
  /** Base URL to configure the app with, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  readonly port: number;
  /** Parsed JSON bodies of the chat requests received, in order. Same array across `reset()`. */
  readonly requests: ReceivedRequest[];
  /** Headers of those requests, index for index (to check `Authorization`). */
  readonly requestHeaders: IncomingHttpHeaders[];
  /** Steps not yet used. */
  readonly pendingSteps: number;
  /** Replaces the queue of replies. */
  script(steps: ScriptStep[]): void;
  /** Appends to the queue of replies. */
  push(...steps: ScriptStep[]): void;
  /** Resolves with `requests` once at least `count` have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Forgets the queue and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export interface ScriptedModelServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  let queue: ScriptStep[] = [];
  const requests: ReceivedRequest[] = [];
  const requestHeaders: IncomingHttpHeaders[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  let completions = 0;
  let callIds = 0;

  function record(body: ReceivedRequest, headers: IncomingHttpHeaders): void {
    requests.push(body);
    requestHeaders.push(headers);
    const ready = waiters.filter((w) => requests.length >= w.count);
    waiters = waiters.filter((w) => requests.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }

  async function handleChat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: ReceivedRequest;
    try {
      body = JSON.parse(await readBody(req)) as ReceivedRequest;
    } catch {
      sendJson(res, 400, { error: { message: 'The request body is not JSON.', type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    record(body, req.headers);

    const step = queue.shift();
    let reply: ScriptReply;
    try {
      reply = step === undefined ? { text: NO_MORE_STEPS_TEXT } : typeof step === 'function' ? step(body) : step;
    } catch (error) {
      // A broken script must be visible in the test, not a hang.
      sendJson(res, 500, { error: { message: `scripted step threw: ${String(error)}`, type: 'server_error', param: null, code: null } });
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

    if (reply.status !== undefined && reply.status >= 400) {
      await pause(reply.delayMs, closed);
      if (!closed.closed) sendJson(res, reply.status, errorBodyOf(reply, reply.status));
      return;
    }
    if (body.stream !== true || reply.ignoreStream) {
      await pause(reply.delayMs, closed);
      if (!closed.closed) sendJson(res, 200, replyCompletion(reply, ctx));
      return;
    }

    const chunks = replyChunks(reply, ctx, body.stream_options?.include_usage === true);
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    // Headers first, so even a cut before any chunk reaches the client as a started stream.
    res.flushHeaders();
    for (let i = 0; i < chunks.length; i += 1) {
      if (reply.cutAfterChunks !== undefined && i >= reply.cutAfterChunks) {
        // Abrupt end: the socket closes without the terminating HTTP chunk, like a crashed server.
        res.socket?.destroy();
        return;
      }
      if (i > 0) await pause(reply.delayMs, closed);
      if (closed.closed) return;
      await write(res, `data: ${JSON.stringify(chunks[i])}\n\n`, closed);
    }
    if (reply.cutAfterChunks !== undefined && reply.cutAfterChunks >= chunks.length) {
      res.socket?.destroy();
      return;
    }
    if (closed.closed) return;
    await write(res, 'data: [DONE]\n\n', closed);
    res.end();
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'POST' && /\/chat\/completions\/?$/.test(path)) {
      handleChat(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: 'server_error', param: null, code: null } });
        else res.destroy();
      });
      return;
    }
    if (req.method === 'GET' && /\/models\/?$/.test(path)) {
      // Some clients probe the model list before chatting.
      sendJson(res, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'mapwright-tests' }] });
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
    get pendingSteps() {
      return queue.length;
    },
    script(steps) {
      queue = [...steps];
    },
    push(...steps) {
      queue.push(...steps);
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
      requests.length = 0;
      requestHeaders.length = 0;
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
function write(res: ServerResponse, data: string, closed: ClosedFlag): Promise<void> {
  return new Promise((resolve) => {
    res.write(data, () => resolve());
    // A write to a connection the client dropped may never report back.
    void closed.whenClosed.then(() => resolve());
  });
}
