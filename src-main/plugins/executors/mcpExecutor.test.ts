import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import { commandEnvironment } from './commandExecutor.js';
import { McpConnection, mcpToolManifests, snakeName } from './mcpExecutor.js';

const SDK = resolve('node_modules/@modelcontextprotocol/sdk/dist/esm');
const ZOD = resolve('node_modules/zod/index.js');

const SERVER_MJS = `
import { McpServer } from ${JSON.stringify(`${SDK}/server/mcp.js`)};
import { StdioServerTransport } from ${JSON.stringify(`${SDK}/server/stdio.js`)};
import { z } from ${JSON.stringify(ZOD)};

const server = new McpServer({ name: 'test', version: '1.0.0' });
server.registerTool('add', {
  title: 'Add two numbers',
  description: 'Adds a and b',
  inputSchema: { a: z.number(), b: z.number() },
  annotations: { readOnlyHint: true, openWorldHint: false },
}, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }));
server.registerTool('fail', { description: 'Always fails', inputSchema: {} },
  async () => ({ isError: true, content: [{ type: 'text', text: 'the raster is missing' }] }));
server.registerTool('slowTool', { description: 'Waits', inputSchema: { ms: z.number() } },
  async ({ ms }, extra) => {
    await new Promise((res) => { const t = setTimeout(res, ms); extra.signal.addEventListener('abort', () => { clearTimeout(t); res(); }); });
    return { content: [{ type: 'text', text: 'done' }] };
  });
server.registerTool('env', { description: 'Environment keys', inputSchema: {} },
  async () => ({ content: [{ type: 'text', text: JSON.stringify({ keys: Object.keys(process.env).sort(), cwd: process.cwd() }) }] }));
server.registerTool('long', { description: 'Long text', inputSchema: {} },
  async () => ({ content: [{ type: 'text', text: 'x'.repeat(5000) }, { type: 'image', data: 'AA==', mimeType: 'image/png' }] }));
await server.connect(new StdioServerTransport());
`;

let pluginDir: string;

before(() => {
  pluginDir = mkdtempSync(join(tmpdir(), 'mw-mcp-'));
  writeFileSync(join(pluginDir, 'server.mjs'), SERVER_MJS);
  mkdirSync(join(pluginDir, 'bin'));
  writeFileSync(join(pluginDir, 'bin', 'serve.sh'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} server.mjs "$@"\n`);
  chmodSync(join(pluginDir, 'bin', 'serve.sh'), 0o755);
  process.env.OPENAI_API_KEY = 'sk-must-not-leak';
});

after(() => {
  rmSync(pluginDir, { recursive: true, force: true });
  delete process.env.OPENAI_API_KEY;
});

const openStdio = (command = process.execPath, args = ['server.mjs']) =>
  McpConnection.open({ stdio: { command, args } }, { pluginDir, timeoutMs: 10_000 });

async function rejectsWith(promise: Promise<unknown>, code: string, pattern?: RegExp): Promise<ToolFailure> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ToolFailure, `expected ToolFailure, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (pattern) assert.match(err.message, pattern);
    return err;
  }
  assert.fail(`expected ToolFailure ${code}`);
}

describe('McpConnection over stdio', () => {
  let conn: McpConnection;
  before(async () => {
    conn = await openStdio();
  });
  after(async () => {
    await conn.close();
  });

  test('lists the tools with their schemas and annotations', async () => {
    const tools = await conn.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['add', 'fail', 'slowTool', 'env', 'long'],
    );
    const add = tools[0]!;
    assert.equal(add.title, 'Add two numbers');
    assert.equal(add.description, 'Adds a and b');
    assert.deepEqual(Object.keys(add.inputSchema.properties as object), ['a', 'b']);
    assert.deepEqual(add.annotations, { readOnlyHint: true, openWorldHint: false });
  });

  test('calls add', async () => {
    const res = await conn.callTool('add', { a: 2, b: 3 }, { timeoutMs: 5000, maxChars: 1000 });
    assert.deepEqual(res, { content: '5', structured: { sum: 5 }, isError: false, truncated: false });
  });

  test('an error result is a handler_error with its text', async () => {
    await rejectsWith(conn.callTool('fail', {}, { timeoutMs: 5000, maxChars: 1000 }), 'handler_error', /the raster is missing/);
  });

  test('caps the text and names other blocks', async () => {
    const res = await conn.callTool('long', {}, { timeoutMs: 5000, maxChars: 100 });
    assert.equal(res.truncated, true);
    assert.equal(res.content.length, 101);
    const full = await conn.callTool('long', {}, { timeoutMs: 5000, maxChars: 10_000 });
    assert.match(full.content, /\n\n\[image image\/png\]$/);
  });

  test('the time limit is a timeout', async () => {
    await rejectsWith(conn.callTool('slowTool', { ms: 5000 }, { timeoutMs: 200, maxChars: 1000 }), 'timeout');
    // The connection stays usable.
    assert.equal((await conn.callTool('add', { a: 1, b: 1 }, { timeoutMs: 5000, maxChars: 100 })).content, '2');
  });

  test('an abort is cancelled', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    await rejectsWith(conn.callTool('slowTool', { ms: 5000 }, { signal: ac.signal, timeoutMs: 10_000, maxChars: 1000 }), 'cancelled');
    assert.ok(Date.now() - started < 3000);
    await rejectsWith(conn.callTool('add', { a: 1, b: 1 }, { signal: ac.signal, timeoutMs: 1000, maxChars: 100 }), 'cancelled');
  });

  test('the server sees only the scrubbed environment, in the plugin folder', async () => {
    assert.equal(process.env.OPENAI_API_KEY, 'sk-must-not-leak');
    const res = await conn.callTool('env', {}, { timeoutMs: 5000, maxChars: 10_000 });
    const { keys, cwd } = JSON.parse(res.content) as { keys: string[]; cwd: string };
    assert.ok(!keys.includes('OPENAI_API_KEY'));
    assert.deepEqual(keys, Object.keys(commandEnvironment(pluginDir)).sort());
    assert.ok(cwd.endsWith(pluginDir.split('/').pop()!));
  });
});

describe('McpConnection.open over stdio', () => {
  test('runs a program inside the plugin folder', async () => {
    const conn = await openStdio('bin/serve.sh', []);
    try {
      assert.equal((await conn.callTool('add', { a: 40, b: 2 }, { timeoutMs: 5000, maxChars: 100 })).content, '42');
    } finally {
      await conn.close();
    }
  });

  test('refuses a program outside the plugin folder', async () => {
    await rejectsWith(openStdio('../../bin/sh', []), 'not_allowed');
  });

  test('a missing program is a handler_error', async () => {
    await rejectsWith(openStdio('no-such-mcp-server-xyz', []), 'handler_error', /not found/);
  });

  test('a server that dies at start is a handler_error with its stderr', async () => {
    await rejectsWith(
      openStdio(process.execPath, ['-e', 'console.error("boom: no config"); process.exit(3)']),
      'handler_error',
      /boom: no config/,
    );
  });

  test('close kills the server', async () => {
    const conn = await openStdio();
    await conn.close();
    await rejectsWith(conn.callTool('add', { a: 1, b: 1 }, { timeoutMs: 1000, maxChars: 100 }), 'handler_error');
  });

  test('an aborted open is cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await rejectsWith(
      McpConnection.open({ stdio: { command: process.execPath, args: ['server.mjs'] } }, { pluginDir, timeoutMs: 5000, signal: ac.signal }),
      'cancelled',
    );
  });
});

describe('McpConnection over streamable HTTP', () => {
  let http: Server;
  let url: string;
  let origin: string;
  let requests = 0;

  before(async () => {
    // One server and transport per session, as the SDK's examples do.
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const session = async () => {
      const server = new McpServer({ name: 'http-test', version: '1.0.0' });
      server.registerTool('add', { description: 'Adds', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      await server.connect(transport);
      return transport;
    };
    http = createServer((req, res) => {
      requests++;
      const id = req.headers['mcp-session-id'];
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      void (known ? Promise.resolve(known) : session()).then((t) => t.handleRequest(req, res));
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    url = `${origin}/mcp`;
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise((done) => http.close(done));
  });

  test('reaches a loopback server whose origin the person allowed', async () => {
    const conn = await McpConnection.open({ url }, { pluginDir, timeoutMs: 5000, egress: { allowedOrigins: new Set([`${origin}/`]) } });
    try {
      assert.deepEqual(
        (await conn.listTools()).map((t) => t.name),
        ['add'],
      );
      assert.equal((await conn.callTool('add', { a: 20, b: 22 }, { timeoutMs: 5000, maxChars: 100 })).content, '42');
    } finally {
      await conn.close();
    }
  });

  test('every request goes through the guard (its lookup, its pinned address)', async () => {
    // Only the guard's injected lookup knows this name: the plain fetch could not reach it.
    const port = new URL(origin).port;
    const lookup = (host: string) => Promise.resolve(host === 'mcp.example' ? [{ address: '127.0.0.1', family: 4 }] : []);
    const conn = await McpConnection.open(
      { url: `http://mcp.example:${port}/mcp` },
      { pluginDir, timeoutMs: 5000, egress: { allowedOrigins: new Set([`http://mcp.example:${port}`]), lookup } },
    );
    try {
      assert.equal((await conn.callTool('add', { a: 1, b: 2 }, { timeoutMs: 5000, maxChars: 100 })).content, '3');
    } finally {
      await conn.close();
    }
  });

  test('refuses a loopback server that is not allowed, before sending anything', async () => {
    const before = requests;
    await rejectsWith(McpConnection.open({ url }, { pluginDir, timeoutMs: 5000 }), 'not_allowed', /loopback|127\.0\.0\.1/);
    await rejectsWith(
      McpConnection.open({ url }, { pluginDir, timeoutMs: 5000, egress: { allowedOrigins: new Set(['http://127.0.0.1:1']) } }),
      'not_allowed',
    );
    assert.equal(requests, before);
  });
});

describe('mcpToolManifests', () => {
  test('snake_case names of at most 31 characters', () => {
    assert.equal(snakeName('getWeather'), 'get_weather');
    assert.equal(snakeName('get-weather'), 'get_weather');
    assert.equal(snakeName('Get Weather!'), 'get_weather');
    assert.equal(snakeName('HTTPServer.listAll'), 'http_server_list_all');
    assert.equal(snakeName('9lives'), 'lives');
    assert.equal(snakeName('__'), '');
    assert.ok(snakeName('a'.repeat(20) + '_' + 'b'.repeat(20)).length <= 31);
    assert.ok(!snakeName('a'.repeat(30) + '_b').endsWith('_'));
  });

  test('every tool write, network, medium; names unique; descriptions capped', () => {
    const manifests = mcpToolManifests('geo', [
      {
        name: 'getWeather',
        description: 'd'.repeat(3000),
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        annotations: { readOnlyHint: true },
      },
      { name: 'get_weather', title: 'Weather 2', description: '', inputSchema: { type: 'object' } },
      { name: '???', description: 'no usable name', inputSchema: { type: 'object' } },
    ]);
    assert.equal(manifests.length, 2);
    const [first, second] = manifests as [(typeof manifests)[0], (typeof manifests)[0]];
    assert.equal(first.id, 'geo.get_weather');
    assert.equal(first.mcp_name, 'getWeather');
    assert.equal(first.title, 'getWeather');
    assert.equal(first.description.length, 2000);
    assert.deepEqual(first.parameters, { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    assert.equal(first.safety, 'write');
    assert.equal(first.network, true);
    assert.equal(first.risk_level, 'medium');
    assert.deepEqual(first.annotations, { readOnlyHint: true });
    assert.equal(second.name, 'get_weather_2');
    assert.equal(second.mcp_name, 'get_weather');
    assert.equal(second.title, 'Weather 2');
    assert.equal(second.description, 'The MCP tool get_weather.');
    assert.deepEqual(second.parameters, { type: 'object', properties: {} });
  });
});
