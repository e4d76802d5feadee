import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { methods, type MethodHandlers } from '../../../src-shared/bridge/contract.js';
import { METHOD_NAMES, type MethodName } from '../../../src-shared/bridge/names.js';
import { WS_PATH } from '../../../src-shared/bridge/wsProtocol.js';
import type { Services } from '../../composition/services.js';
import { startWebServer, type WebHost } from './webServer.js';

/**
 * "The bridge cannot be crashed": the real web server runs in this process, so an uncaught
 * 'error' or throw from a hostile peer would fail this file. Each case sends one violation,
 * then a fresh good client must still get an answer from the bridge and the page.
 */

const APP_INFO = { version: 'fuzz', host: 'web', dataBase: '', dataQuery: '', model: { configured: false, name: null, help: null } };

/** Stub services: validates like `createServices`, plus two methods that misbehave on purpose. */
function stubServices(): Services {
  return {
    handlers: {} as MethodHandlers,
    invoke(method, params) {
      if (method === 'test/throws-sync') throw new Error('thrown synchronously at /home/someone/mapwright/x.ts');
      if (method === 'test/unserializable') return Promise.resolve({ big: 1n });
      if (!(METHOD_NAMES as readonly string[]).includes(method)) return Promise.reject(new Error(`Unknown bridge method '${method}'`));
      if (!methods[method as MethodName].params.safeParse(params ?? {}).success)
        return Promise.reject(new Error(`Invalid parameters for ${method}`));
      return method === 'app/info' ? Promise.resolve(APP_INFO) : Promise.reject(new Error('not stubbed'));
    },
    async serveData(path) {
      if (path.startsWith('data/boom')) throw new Error("ENOENT: no such file or directory, open '/opt/Mapwright/resources/secret.gpkg'");
      return { status: 404, contentType: 'text/plain', body: 'Not found' };
    },
    runForPerson: async () => ({ ok: false, error: { code: 'not_allowed', message: 'not stubbed', retryable: false } }),
    connect: () => () => {},
    close: async () => {},
  };
}

// ---- raw WebSocket frames (RFC 6455 §5.2), built by hand so they can be wrong on purpose ----

interface FrameSpec {
  opcode: number;
  payload?: Buffer;
  fin?: boolean;
  /** RSV1..3 as a 3-bit number (4 = RSV1). */
  rsv?: number;
  /** Clients must mask; false builds the forbidden unmasked frame. */
  masked?: boolean;
  /** Declared length, when it should differ from the payload's (an oversized header). */
  length?: bigint;
}

function frame({ opcode, payload = Buffer.alloc(0), fin = true, rsv = 0, masked = true, length }: FrameSpec): Buffer {
  const declared = length ?? BigInt(payload.length);
  const maskBit = masked ? 0x80 : 0;
  // Length: 7 bits, or 126 + 16 bits, or 127 + 64 bits.
  const size = declared < 126n ? 2 : declared <= 0xffffn ? 4 : 10;
  const head = Buffer.alloc(size);
  head[0] = (fin ? 0x80 : 0) | (rsv << 4) | opcode;
  head[1] = maskBit | (size === 2 ? Number(declared) : size === 4 ? 126 : 127);
  if (size === 4) head.writeUInt16BE(Number(declared), 2);
  if (size === 10) head.writeBigUInt64BE(declared, 2);
  if (!masked) return Buffer.concat([head, payload]);
  const key = randomBytes(4);
  return Buffer.concat([head, key, payload.map((b, i) => b ^ key[i % 4]!)]);
}

const text = (s: string | Buffer, more: Partial<FrameSpec> = {}) => frame({ opcode: 0x1, payload: Buffer.from(s), ...more });
const closeBody = (code: number, reason: Buffer = Buffer.alloc(0)) => Buffer.concat([Buffer.from([code >> 8, code & 0xff]), reason]);
const BAD_UTF8 = Buffer.from([0x68, 0x69, 0xc3, 0x28, 0xff]);

// ---- the server under test ----

let host: WebHost;
let rendererDir: string;
let token: string;
const crashes: unknown[] = [];
const logged: string[] = [];
const realStderrWrite = process.stderr.write.bind(process.stderr);
const onCrash = (err: unknown) => crashes.push(err);

before(async () => {
  // Observe without changing what happens: node:test already turns these into failures.
  process.on('uncaughtExceptionMonitor', onCrash);
  process.on('unhandledRejection', onCrash);
  // The host's stderr lines are kept to check they hold no path or stack.
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    if (!String(chunk).startsWith('Mapwright web host:')) return realStderrWrite(chunk, ...rest);
    logged.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  // index.html only: app.js is missing, so GET /app.js fails inside the server (a 500).
  rendererDir = mkdtempSync(join(tmpdir(), 'mapwright-fuzz-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>fuzz</title>');
  host = await startWebServer({ services: async () => stubServices(), rendererDir, port: 0 });
  token = new URL(host.url).searchParams.get('token')!;
});

after(async () => {
  await host.close();
  process.stderr.write = realStderrWrite;
  process.off('uncaughtExceptionMonitor', onCrash);
  process.off('unhandledRejection', onCrash);
  rmSync(rendererDir, { recursive: true, force: true });
});

afterEach(async () => {
  await assertServing();
});

const origin = () => `http://127.0.0.1:${host.port}`;

/** Still alive: nothing escaped, a fresh client gets `app/info`, the page answers 200. */
async function assertServing(): Promise<void> {
  // Emptied each time, so a failure names the case that caused it.
  const escaped = crashes.splice(0).map((err) => (err instanceof Error ? err.message : String(err)));
  assert.deepEqual(escaped, [], 'an error escaped the server');
  const reply = await request(JSON.stringify({ type: 'request', id: 7, method: 'app/info', params: {} }));
  assert.deepEqual(reply, { kind: 'message', data: { type: 'response', id: 7, ok: true, result: APP_INFO } });
  assert.equal((await httpGet(`/?token=${token}`)).status, 200);
}

function httpGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(`${origin()}${path}`, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

type Reply = { kind: 'message'; data: unknown } | { kind: 'close'; code: number };

/** Opens a good client, sends one message, resolves with the first answer or the close. */
function request(message: string | Buffer, binary = false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}${WS_PATH}?token=${token}`, { origin: origin() });
    // A handler that threw never answers: fail in 5 s rather than hang the file.
    const timer = setTimeout(() => (ws.terminate(), reject(new Error('no answer from the bridge in 5 s'))), 5000);
    ws.on('open', () => ws.send(message, { binary }));
    ws.on('message', (data) => {
      clearTimeout(timer);
      resolve({ kind: 'message', data: JSON.parse(String(data)) });
      ws.close();
    });
    ws.on('close', (code) => (clearTimeout(timer), resolve({ kind: 'close', code })));
    ws.on('error', (err) => (clearTimeout(timer), reject(err)));
  });
}

/** Sends raw bytes on a raw TCP connection; resolves with everything the server sent until it closed. */
function rawExchange(bytes: Buffer[], opts: { endAfter?: boolean } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => {
      for (const b of bytes) socket.write(b);
      if (opts.endAfter) socket.end();
    });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => (socket.destroy(), reject(new Error('the server did not close the connection in 5 s'))), 5000);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => socket.end());
    socket.on('error', () => {}); // a reset by the server is an acceptable way to refuse
    socket.on('close', () => (clearTimeout(timer), resolve(Buffer.concat(chunks))));
  });
}

function upgradeRequest(over: { path?: string; origin?: string | null; headers?: string[] } = {}): Buffer {
  const lines = [
    `GET ${over.path ?? `${WS_PATH}?token=${token}`} HTTP/1.1`,
    `Host: 127.0.0.1:${host.port}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    ...(over.origin === null ? [] : [`Origin: ${over.origin ?? origin()}`]),
    ...(over.headers ?? []),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
}

/** After a good handshake, sends `frames`; returns the close code the server answered with (or null). */
async function afterHandshake(frames: Buffer[], endAfter = false): Promise<number | null> {
  const reply = await rawExchange([upgradeRequest(), ...frames], { endAfter });
  const split = reply.indexOf('\r\n\r\n');
  assert.match(reply.subarray(0, split).toString(), /^HTTP\/1\.1 101 /);
  const first = reply.subarray(split + 4);
  if (first.length < 4 || first[0] !== 0x88) return null;
  return first.readUInt16BE(2);
}

describe('web host bridge: WebSocket protocol violations close that socket only', () => {
  const cases: [string, Buffer[], number][] = [
    ['invalid UTF-8 in a text frame', [text(BAD_UTF8)], 1007],
    ...[0x3, 0x4, 0x5, 0x6, 0x7, 0xb, 0xc, 0xd, 0xe, 0xf].map((op): [string, Buffer[], number] => [
      `reserved opcode 0x${op.toString(16)}`,
      [frame({ opcode: op })],
      1002,
    ]),
    ['RSV1 set (no extension negotiated)', [text('{}', { rsv: 4 })], 1002],
    ['RSV2 set', [text('{}', { rsv: 2 })], 1002],
    ['RSV3 set', [text('{}', { rsv: 1 })], 1002],
    ['unmasked client frame', [text('{}', { masked: false })], 1002],
    ['64-bit length beyond maxPayload', [text('', { length: 1n << 40n })], 1009],
    ['64-bit length beyond 2^53', [text('', { length: 1n << 62n })], 1009],
    ['64-bit length of 1 MiB + 1, just over maxPayload', [text('', { length: (1n << 20n) + 1n })], 1009],
    ['fragmented control frame (ping without FIN)', [frame({ opcode: 0x9, fin: false })], 1002],
    ['control frame longer than 125 bytes', [frame({ opcode: 0x9, payload: Buffer.alloc(126) })], 1002],
    ['continuation frame without a start', [frame({ opcode: 0x0, payload: Buffer.from('x') })], 1002],
    ['new text frame inside a fragmented message', [text('a', { fin: false }), text('b')], 1002],
    ...[0, 999, 1004, 1005, 1006, 1016, 2999, 5000, 65535].map((code): [string, Buffer[], number] => [
      `close code ${code}`,
      [frame({ opcode: 0x8, payload: closeBody(code) })],
      1002,
    ]),
    ['close payload of 1 byte', [frame({ opcode: 0x8, payload: Buffer.from([3]) })], 1002],
    ['close reason with invalid UTF-8', [frame({ opcode: 0x8, payload: closeBody(1000, BAD_UTF8) })], 1007],
  ];
  for (const [name, frames, code] of cases) {
    it(name, async () => assert.equal(await afterHandshake(frames), code));
  }

  it('truncated frame headers, then the client hangs up', async () => {
    for (const partial of [[0x81], [0x81, 0xfe, 0x00], [0x81, 0xff, 0, 0, 0], [0x81, 0x85, 1, 2]]) {
      assert.equal(await afterHandshake([Buffer.from(partial)], true), null);
    }
  });
});

describe('web host bridge: malformed application messages', () => {
  const req = (fields: Record<string, unknown>) => JSON.stringify({ type: 'request', id: 1, method: 'app/info', params: {}, ...fields });
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const closes: [string, string | Buffer, boolean?][] = [
    ['not JSON', '{"type":"request",'],
    ['empty text', ''],
    ['a JSON array', '[1,2,3]'],
    ['JSON null', 'null'],
    ['a binary frame holding a good request', Buffer.from(req({})), true],
    ['an id that is a string', req({ id: '1' })],
    ['an id beyond any number (1e400 parses to Infinity)', req({}).replace('"id":1', '"id":1e400')],
    ['an id beyond the safe integers (zod 4 int())', req({}).replace('"id":1', '"id":1e300')],
    ['a method that is a number', req({ method: 42 })],
    ['10k-deep nested JSON as the whole message', deep(10_000)],
    ['a message of 1 MiB + 1', 'x'.repeat((1 << 20) + 1)],
  ];
  for (const [name, message, binary] of closes) {
    it(`${name}: the socket is closed`, async () => {
      const reply = await request(message, binary);
      assert.equal(reply.kind, 'close');
      assert.ok([1003, 1009].includes((reply as { code: number }).code), `close code ${(reply as { code: number }).code}`);
    });
  }

  const errors: [string, string][] = [
    ['an unknown method', req({ method: 'nope/nothing' })],
    ['params of the wrong type', req({ params: 'x' })],
    ['10k-deep nested params', req({}).replace('"params":{}', `"params":${deep(10_000)}`)],
    ['a method that throws synchronously', req({ method: 'test/throws-sync' })],
    ['a result that cannot be serialised', req({ method: 'test/unserializable' })],
  ];
  for (const [name, message] of errors) {
    it(`${name}: an error response`, async () => {
      const reply = await request(message);
      assert.equal(reply.kind, 'message');
      assert.equal((reply as { data: { ok: boolean } }).data.ok, false);
    });
  }

  it('the largest safe integer id is answered', async () => {
    const reply = await request(req({ id: Number.MAX_SAFE_INTEGER }));
    assert.deepEqual(reply, { kind: 'message', data: { type: 'response', id: Number.MAX_SAFE_INTEGER, ok: true, result: APP_INFO } });
  });
});

describe('web host: bad handshakes and requests are refused without harm', () => {
  // Thunks: the port and token exist only once `before` has run.
  const refused: [string, () => Buffer][] = [
    ['wrong Origin', () => upgradeRequest({ origin: 'http://evil.example' })],
    ['no Origin', () => upgradeRequest({ origin: null })],
    ['no token', () => upgradeRequest({ path: WS_PATH })],
    ['wrong token of the right length', () => upgradeRequest({ path: `${WS_PATH}?token=${'0'.repeat(token.length)}` })],
    ['another path', () => upgradeRequest({ path: `/bridgeX?token=${token}` })],
    ['garbage Sec-WebSocket-Key and version', () => upgradeRequest({ headers: ['Sec-WebSocket-Key: !!', 'Sec-WebSocket-Version: 99'] })],
    ['garbage bytes instead of HTTP', () => Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0d, 0x0a, 0x0d, 0x0a])],
    ['a 64 KiB header', () => upgradeRequest({ headers: [`X-Big: ${'a'.repeat(65536)}`] })],
    ['an unparsable URL', () => Buffer.from('GET // HTTP/1.1\r\nHost: x\r\n\r\n')],
  ];
  for (const [name, bytes] of refused) {
    it(name, async () => {
      // The client hangs up after sending, so a kept-alive plain HTTP answer ends too.
      const reply = (await rawExchange([bytes()], { endAfter: true })).toString('latin1');
      assert.match(reply, /^HTTP\/1\.1 4\d\d /);
    });
  }

  it('a handshake cut off halfway', async () => {
    // Node answers an incomplete request with 400 (clientError) or just closes.
    const reply = (await rawExchange([upgradeRequest().subarray(0, 40)], { endAfter: true })).toString('latin1');
    assert.match(reply, /^$|^HTTP\/1\.1 400 /);
  });

  it('a malformed %-escape in a data path is a 400', async () => {
    assert.equal((await httpGet(`/data/%E0%A4%A?token=${token}`)).status, 400);
  });

  const failing: [string, () => string][] = [
    ['a missing renderer file', () => '/app.js'],
    ['a data route that throws', () => `/data/boom?token=${token}`],
  ];
  for (const [name, path] of failing) {
    it(`500 from ${name} shows no error text or path`, async () => {
      const res = await httpGet(path());
      assert.equal(res.status, 500);
      assert.equal(res.body, 'Internal error');
    });
  }

  it("the host's stderr lines hold no path and no stack", () => {
    assert.ok(logged.length > 0, 'the violations were logged');
    for (const line of logged) {
      assert.doesNotMatch(line, /\/(home|opt|tmp)\b|\bat .*:\d+:\d+/, line);
      assert.equal(line.split('\n').length, 2, line); // one line each
    }
  });
});
