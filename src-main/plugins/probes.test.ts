/**
 * The connectivity probes against real loopback servers started here: an http server, a gRPC
 * server, an SDK MCP server over stdio and over streamable HTTP; and the failures: nothing
 * listening, the guard refusing a loopback origin the person did not allow, a TLS handshake
 * that fails, an MCP server lacking the bound tool, a stdio command that exits at once, one that
 * never answers (the time limit).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { checkPluginManifest, type PluginToolManifest } from '../../src-shared/plugins/pluginManifest.js';
import { McpConnection } from './executors/mcpExecutor.js';
import { boundToolName, McpSessions, mcpSpecOf, mcpVersionKey, runMcpTool, type McpExecutorManifest } from './executors/mcpSessions.js';
import { effectivePermission } from './mcpToolPermission.js';
import { probeExecutors } from './probes.js';
import { readPluginFolder, type PluginEntry } from './readPluginRoot.js';

const SDK = resolve('node_modules/@modelcontextprotocol/sdk/dist/esm');
const ZOD = resolve('node_modules/zod/index.js');

const SERVER_MJS = `
import { McpServer } from ${JSON.stringify(`${SDK}/server/mcp.js`)};
import { StdioServerTransport } from ${JSON.stringify(`${SDK}/server/stdio.js`)};
import { z } from ${JSON.stringify(ZOD)};
const server = new McpServer({ name: 'probe-test', version: '1.0.0' });
server.registerTool('reverseText', { description: 'Reverses', inputSchema: { text: z.string().max(100) } },
  async ({ text }) => ({ content: [{ type: 'text', text: [...text].reverse().join('') }] }));
server.registerTool('count', { description: 'Counts', inputSchema: { n: z.number().int() } },
  async ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }));
await server.connect(new StdioServerTransport());
`;

const PROTO = `syntax = "proto3";
package probe.v1;
message Req { string name = 1; }
message Rep { string greeting = 1; }
service Greeter { rpc Greet(Req) returns (Rep); }
`;

let dir: string;
let httpServer: Server;
let httpOrigin: string;
let mcpHttp: Server;
let mcpUrl: string;
let grpcServer: grpc.Server;
let grpcPort = 0;
let deadPort = 0;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mw-probes-'));
  writeFileSync(join(dir, 'server.mjs'), SERVER_MJS);
  writeFileSync(join(dir, 'greeter.proto'), PROTO);

  let requests = 0;
  httpServer = createServer((_req, res) => {
    requests++;
    res.end('ok');
  });
  await new Promise<void>((done) => httpServer.listen(0, '127.0.0.1', done));
  httpOrigin = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  httpRequests = () => requests;

  const sessions = new Map<string, StreamableHTTPServerTransport>();
  mcpHttp = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    const session = async () => {
      const server = new McpServer({ name: 'http-probe', version: '1.0.0' });
      server.registerTool('add', { description: 'Adds', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, transport),
      });
      await server.connect(transport);
      return transport;
    };
    void (known ? Promise.resolve(known) : session()).then((t) => t.handleRequest(req, res));
  });
  await new Promise<void>((done) => mcpHttp.listen(0, '127.0.0.1', done));
  mcpUrl = `http://127.0.0.1:${(mcpHttp.address() as AddressInfo).port}/mcp`;

  const def = protoLoader.loadSync(join(dir, 'greeter.proto'), { keepCase: true, includeDirs: [dir] });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { probe: { v1: { Greeter: grpc.ServiceClientConstructor } } };
  grpcServer = new grpc.Server();
  grpcServer.addService(pkg.probe.v1.Greeter.service, {
    Greet: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(null, { greeting: 'hi' }),
  });
  grpcPort = await new Promise<number>((res, rej) =>
    grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? rej(err) : res(p))),
  );

  // A port that was just free: nothing listens there.
  const probe = createNetServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise((done) => probe.close(done));
});

let httpRequests: () => number = () => 0;

after(async () => {
  httpServer.closeAllConnections();
  mcpHttp.closeAllConnections();
  await Promise.all([new Promise((d) => httpServer.close(d)), new Promise((d) => mcpHttp.close(d))]);
  grpcServer.forceShutdown();
  rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, unknown>;

const tool = (name: string, executor: Json, extra: Json = {}): Json => ({
  name,
  title: `Tool ${name}`,
  group: 'Tests',
  icon: 'cog',
  description: `Does ${name}.`,
  safety: 'read',
  network: true,
  executor,
  ...extra,
});

function entry(tools: Json[], version = '1.0.0'): PluginEntry {
  const checked = checkPluginManifest({
    namespace: 'probe',
    version,
    name: 'Probe',
    description: 'Probe test.',
    author: 'Tests',
    requires: ['net'],
    tools,
  });
  assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.problems));
  return {
    namespace: 'probe',
    version,
    dir,
    origin: 'user',
    state: 'available',
    reasons: [],
    manifest: checked.manifest,
    tests: [],
    skills: [],
    readme: false,
  };
}

const stdio = (extra: Json = {}): Json => ({ type: 'mcp', stdio: { command: process.execPath, args: ['server.mjs'] }, ...extra });
const grpcEx = (address: string, extra: Json = {}): Json => ({
  type: 'grpc',
  proto: 'greeter.proto',
  service: 'probe.v1.Greeter',
  method: 'Greet',
  address,
  ...extra,
});
const allowed = (...origins: string[]) => ({ egress: { allowedOrigins: new Set(origins) } });

describe('probeExecutors: reachable endpoints', () => {
  test('http, grpc, mcp over stdio and over HTTP all pass, in parallel; no HTTP request is sent', async () => {
    const before = httpRequests();
    const res = await probeExecutors(
      entry([
        tool(
          'fetch_a',
          { type: 'http', method: 'GET', url: `${httpOrigin}/a/{x}` },
          { parameters: { type: 'object', properties: { x: { type: 'string' } } } },
        ),
        tool('fetch_b', { type: 'http', method: 'POST', url: `${httpOrigin}/b` }),
        tool('greet', grpcEx(`127.0.0.1:${grpcPort}`)),
        tool('reverse', stdio({ tool: 'reverseText' })),
        tool('count', stdio(), { parameters: { type: 'object', properties: { n: { type: 'integer' } } } }),
        tool('add', { type: 'mcp', url: mcpUrl }),
      ]),
      allowed(httpOrigin, `http://127.0.0.1:${grpcPort}`, new URL(mcpUrl).origin),
    );
    assert.deepEqual(res.problems, []);
    assert.equal(httpRequests(), before);
    // Schemas only for entries that declare no parameters.
    assert.deepEqual([...res.mcpSchemas.keys()].sort(), ['add', 'reverse']);
    const reverse = res.mcpSchemas.get('reverse')!;
    assert.equal(reverse.type, 'object');
    assert.deepEqual(Object.keys(reverse.properties), ['text']);
    assert.deepEqual(reverse.required, ['text']);
    assert.deepEqual(Object.keys(res.mcpSchemas.get('add')!.properties), ['a', 'b']);
  });

  test('with the pool, the connection stays open for the calls (an eager start)', async () => {
    const sessions = new McpSessions();
    try {
      const res = await probeExecutors(entry([tool('reverse', stdio({ tool: 'reverseText' })), tool('count', stdio())]), { sessions });
      assert.deepEqual(res.problems, []);
      assert.equal(sessions.size(), 1);
    } finally {
      await sessions.closeVersion(mcpVersionKey(dir, '1.0.0'));
    }
    assert.equal(sessions.size(), 0);
  });

  test('a plugin without network executors has nothing to probe', async () => {
    const res = await probeExecutors(entry([tool('echo', { type: 'command', argv: ['/bin/echo', 'x'] }, { network: false })]));
    assert.deepEqual(res, { problems: [], mcpSchemas: new Map() });
  });
});

describe('probeExecutors: failures are problems naming the endpoint', () => {
  test('nothing listening (http and grpc)', async () => {
    const origin = `http://127.0.0.1:${deadPort}`;
    const res = await probeExecutors(
      entry([tool('fetch', { type: 'http', method: 'GET', url: `${origin}/x` }), tool('greet', grpcEx(`127.0.0.1:${deadPort}`))]),
      { ...allowed(origin), timeoutMs: 1500 },
    );
    assert.equal(res.problems.length, 2, res.problems.join('\n'));
    assert.match(
      res.problems[0]!,
      new RegExp(`^http ${origin} \\(tool fetch\\): 127\\.0\\.0\\.1:${deadPort} is unreachable \\(ECONNREFUSED\\)`),
    );
    assert.match(res.problems[1]!, new RegExp(`^grpc 127\\.0\\.0\\.1:${deadPort} \\(tool greet\\): .*did not become ready`));
  });

  test('the guard refuses a loopback origin the person did not allow; nothing is sent', async () => {
    const before = httpRequests();
    const res = await probeExecutors(
      entry([
        tool('fetch', { type: 'http', method: 'GET', url: `${httpOrigin}/x` }),
        tool('greet', grpcEx(`127.0.0.1:${grpcPort}`)),
        tool('add', { type: 'mcp', url: mcpUrl }),
      ]),
    );
    assert.equal(res.problems.length, 3, res.problems.join('\n'));
    for (const p of res.problems) assert.match(p, /Refused .*(loopback|127\.0\.0\.1)/);
    assert.equal(httpRequests(), before);
  });

  test('a TLS handshake that fails (an https origin served in plain http)', async () => {
    const origin = httpOrigin.replace('http:', 'https:');
    const res = await probeExecutors(entry([tool('fetch', { type: 'http', method: 'GET', url: `${origin}/x` })]), allowed(origin));
    assert.equal(res.problems.length, 1);
    assert.match(res.problems[0]!, /^http https:\/\/127\.0\.0\.1:\d+ \(tool fetch\): 127\.0\.0\.1:\d+ is unreachable/);
  });

  test('a grpc method the proto does not have', async () => {
    const res = await probeExecutors(
      entry([tool('greet', grpcEx(`127.0.0.1:${grpcPort}`, { method: 'Wave' }))]),
      allowed(`http://127.0.0.1:${grpcPort}`),
    );
    assert.equal(res.problems.length, 1);
    assert.match(res.problems[0]!, /tool 'greet': The service probe\.v1\.Greeter has no method Wave/);
  });

  test('an MCP server lacking the bound tool lists the names it has', async () => {
    const res = await probeExecutors(entry([tool('reverse', stdio({ tool: 'reverseText' })), tool('note_add', stdio())]));
    assert.deepEqual(res.problems.length, 1);
    assert.match(
      res.problems[0]!,
      /\(tools reverse, note_add\): tool 'note_add': the server has no tool 'note_add' \(it has: reverseText, count\)/,
    );
    assert.deepEqual([...res.mcpSchemas.keys()], ['reverse']);
  });

  test('an MCP stdio command that exits at once', async () => {
    const res = await probeExecutors(
      entry([
        tool('x', { type: 'mcp', stdio: { command: process.execPath, args: ['-e', 'console.error("no config file"); process.exit(2)'] } }),
      ]),
    );
    assert.equal(res.problems.length, 1);
    assert.match(res.problems[0]!, /^mcp .* \(tool x\): .*no config file/s);
  });

  test('an MCP command that is not there', async () => {
    const res = await probeExecutors(entry([tool('x', { type: 'mcp', stdio: { command: 'no-such-mcp-server-xyz' } })]));
    assert.equal(res.problems.length, 1);
    assert.match(res.problems[0]!, /not found/);
  });

  test('an MCP server that never answers hits the time limit; the others still report', async () => {
    const started = Date.now();
    const res = await probeExecutors(
      entry([
        tool('silent', { type: 'mcp', stdio: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } }),
        tool('reverse', stdio({ tool: 'reverseText' })),
      ]),
      { timeoutMs: 3000 },
    );
    // Bounded by the limit (3 s, and a little for the race), not by the silent server.
    assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
    assert.equal(res.problems.length, 1, res.problems.join('\n'));
    assert.match(res.problems[0]!, /^mcp .* \(tool silent\): .*(within 3000 ms|within 3 s)/);
    assert.deepEqual([...res.mcpSchemas.keys()], ['reverse']);
  });

  test('a stopped probe says so and never throws', async () => {
    const ac = new AbortController();
    ac.abort();
    const res = await probeExecutors(entry([tool('reverse', stdio({ tool: 'reverseText' }))]), { signal: ac.signal });
    assert.deepEqual(res.problems, [`mcp ${process.execPath} server.mjs (tool reverse): stopped`]);
    // Stopped while running: every probe ends at once, the silent server is not waited for.
    const later = new AbortController();
    setTimeout(() => later.abort(), 200);
    const started = Date.now();
    const mid = await probeExecutors(
      entry([
        tool('silent', { type: 'mcp', stdio: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } }),
        tool('fetch', { type: 'http', method: 'GET', url: `${httpOrigin}/x` }),
      ]),
      { ...allowed(httpOrigin), signal: later.signal, timeoutMs: 10_000 },
    );
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.deepEqual(mid.problems.length, 1, mid.problems.join('\n'));
    assert.match(mid.problems[0]!, /\(tool silent\): .*stopped/);
  });
});

describe('the e2e fixture plugin mcp-demo', () => {
  const FIXTURE = resolve('e2e/fixtures/plugins/mcp-demo');
  let copy: string;
  before(() => {
    // As e2e uses it: a copy in a temporary home, far from the repo's node_modules.
    copy = join(mkdtempSync(join(tmpdir(), 'mw-mcp-demo-')), 'mcp-demo');
    cpSync(FIXTURE, copy, { recursive: true });
  });
  after(() => rmSync(resolve(copy, '..'), { recursive: true, force: true }));

  test('its plugin.yaml passes the check and the reader (node is found on the safe PATH)', () => {
    const read = readPluginFolder(FIXTURE, 'built-in');
    assert.deepEqual(read.reasons, []);
    assert.equal(read.state, 'available');
    const tools = read.manifest!.tools;
    assert.deepEqual(
      tools.map((t) => [t.name, t.executor.type === 'mcp' ? boundToolName(t.name, t.executor) : '']),
      [
        ['reverse_text', 'reverse_text'],
        ['add_note', 'note_add'],
      ],
    );
    // Both declared read; neither is believed.
    for (const t of tools) assert.deepEqual(effectivePermission(t, false), { safety: 'write', network: true });
    assert.deepEqual(effectivePermission(tools[0]!, true), { safety: 'read', network: false });
  });

  test('a copy probes clean: both bound tools exist, the server schema fills the entry without parameters', async () => {
    const entry = readPluginFolder(copy, 'user');
    assert.equal(entry.state, 'available', entry.reasons.join('\n'));
    const res = await probeExecutors(entry);
    assert.deepEqual(res.problems, []);
    assert.deepEqual([...res.mcpSchemas.keys()], ['reverse_text']);
    assert.deepEqual(res.mcpSchemas.get('reverse_text')!.required, ['text']);
  });

  test('its server lies in its annotations, and one process serves both tools', async () => {
    const entry = readPluginFolder(copy, 'user');
    const [reverse, addNote] = entry.manifest!.tools.map(mcpExecutor);
    const spec = mcpSpecOf(reverse!);
    const conn = await McpConnection.open(spec, { pluginDir: copy, timeoutMs: 10_000 });
    try {
      const listed = await conn.listTools();
      assert.deepEqual(listed.find((t) => t.name === 'note_add')?.annotations, {
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
    } finally {
      await conn.close();
    }
    const pool = new McpSessions();
    const ctx = {
      pluginDir: copy,
      version: entry.version,
      openTimeoutMs: 10_000,
      signal: new AbortController().signal,
      timeoutMs: 5000,
      maxChars: 1000,
    };
    try {
      assert.deepEqual(await runMcpTool(pool, spec, 'reverse_text', { text: 'abc' }, ctx), {
        content: 'cba',
        structured: { reversed: 'cba' },
        truncated: false,
      });
      const addSpec = mcpSpecOf(addNote!);
      assert.equal((await runMcpTool(pool, addSpec, 'note_add', { note: 'one' }, ctx)).content, 'Added note 1: one');
      assert.equal((await runMcpTool(pool, addSpec, 'note_add', { note: 'two' }, ctx)).content, 'Added note 2: two');
      assert.equal(pool.size(), 1);
    } finally {
      await pool.closeAll();
    }
  });
});

function mcpExecutor(tool: PluginToolManifest): McpExecutorManifest {
  assert.equal(tool.executor.type, 'mcp');
  return tool.executor as McpExecutorManifest;
}
