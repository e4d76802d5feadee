/**
 * The pool of MCP connections against a real SDK server over stdio (written to a temp plugin
 * folder, as in mcpExecutor.test.ts): one open shared by concurrent callers, one server per
 * plugin version and spec, a dead server dropped and started again, a server that died between
 * calls costing no failure, closeVersion / closeAll, and the result as the model reads it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import { McpConnection, type McpSpec } from './mcpExecutor.js';
import { toolFailureOf } from './testing/toolFailure.js';
import {
  boundToolName,
  McpSessions,
  mcpSpecKey,
  mcpSpecOf,
  mcpVersionKey,
  runMcpTool,
  type McpOpener,
  type McpRunContext,
  type McpSessionContext,
} from './mcpSessions.js';

const SDK = resolve('node_modules/@modelcontextprotocol/sdk/dist/esm');
const ZOD = resolve('node_modules/zod/index.js');

const SERVER_MJS = `
import { McpServer } from ${JSON.stringify(`${SDK}/server/mcp.js`)};
import { StdioServerTransport } from ${JSON.stringify(`${SDK}/server/stdio.js`)};
import { z } from ${JSON.stringify(ZOD)};

const server = new McpServer({ name: 'pool-test', version: '1.0.0' });
server.registerTool('pid', { description: 'The process id', inputSchema: {} },
  async () => ({ content: [{ type: 'text', text: String(process.pid) }], structuredContent: { pid: process.pid } }));
server.registerTool('echo', { description: 'Echoes', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }], structuredContent: { text, big: 'y'.repeat(text.length * 10) } }));
server.registerTool('fail', { description: 'Fails', inputSchema: {} },
  async () => ({ isError: true, content: [{ type: 'text', text: 'no such layer' }] }));
server.registerTool('die', { description: 'Exits without answering', inputSchema: {} }, async () => process.exit(7));
server.registerTool('exitSoon', { description: 'Answers, then exits', inputSchema: {} }, async () => {
  setTimeout(() => process.exit(0), 30);
  return { content: [{ type: 'text', text: 'bye' }] };
});
await server.connect(new StdioServerTransport());
`;

let pluginDir: string;
const spec: McpSpec = { stdio: { command: process.execPath, args: ['server.mjs'] } };

before(() => {
  pluginDir = mkdtempSync(join(tmpdir(), 'mw-mcp-pool-'));
  writeFileSync(join(pluginDir, 'server.mjs'), SERVER_MJS);
});
after(() => rmSync(pluginDir, { recursive: true, force: true }));

const where = (over: Partial<McpSessionContext> = {}): McpSessionContext => ({
  pluginDir,
  version: '1.0.0',
  openTimeoutMs: 10_000,
  ...over,
});
const run = (over: Partial<McpRunContext> = {}): McpRunContext => ({
  ...where(),
  signal: new AbortController().signal,
  timeoutMs: 5000,
  maxChars: 1000,
  ...over,
});

/** The real opener, counting its opens. */
function counting(): { open: McpOpener; opens: () => number } {
  let n = 0;
  return {
    open: (s, c) => {
      n++;
      return McpConnection.open(s, c);
    },
    opens: () => n,
  };
}

describe('McpSessions over stdio', () => {
  test('concurrent callers share one open; one server per version and spec', async () => {
    const c = counting();
    const pool = new McpSessions({ open: c.open });
    try {
      const [a, b, d] = await Promise.all([pool.get(spec, where()), pool.get(spec, where()), pool.get(spec, where())]);
      assert.equal(c.opens(), 1);
      assert.ok(a === b && b === d);
      assert.equal(await pool.get(spec, where()), a);
      // Another version, or other args, is another server.
      const other = await pool.get(spec, where({ version: '1.1.0' }));
      assert.notEqual(other, a);
      await pool.get({ stdio: { command: process.execPath, args: ['server.mjs', '--x'] } }, where());
      assert.equal(c.opens(), 3);
      assert.equal(pool.size(), 3);
      const pids = await Promise.all(
        [where(), where({ version: '1.1.0' })].map(async (w) => (await runMcpTool(pool, spec, 'pid', {}, run(w))).content),
      );
      assert.notEqual(pids[0], pids[1]);
    } finally {
      await pool.closeAll();
    }
    assert.equal(pool.size(), 0);
  });

  test('runMcpTool maps the answer for the model, with the char cap', async () => {
    const pool = new McpSessions();
    try {
      assert.deepEqual(await runMcpTool(pool, spec, 'echo', { text: 'hello' }, run()), {
        content: 'hello',
        structured: { text: 'hello', big: 'y'.repeat(50) },
        truncated: false,
      });
      // Structured content too large for the cap is left out; the text is cut.
      const big = await runMcpTool(pool, spec, 'echo', { text: 'z'.repeat(200) }, run({ maxChars: 100 }));
      assert.equal(big.structured, undefined);
      assert.equal(big.truncated, true);
      assert.equal(big.content, `${'z'.repeat(100)}…`);
    } finally {
      await pool.closeAll();
    }
  });

  test('an error result fails the call and keeps the connection', async () => {
    const c = counting();
    const pool = new McpSessions({ open: c.open });
    try {
      const err = await toolFailureOf(runMcpTool(pool, spec, 'fail', {}, run()));
      assert.equal(err.code, 'handler_error');
      assert.match(err.message, /no such layer/);
      assert.doesNotMatch(err.message, /no longer answers/);
      assert.equal((await runMcpTool(pool, spec, 'echo', { text: 'still' }, run())).content, 'still');
      assert.equal(c.opens(), 1);
    } finally {
      await pool.closeAll();
    }
  });

  test('a server that dies during a call is dropped and started again on the next call', async () => {
    const c = counting();
    const pool = new McpSessions({ open: c.open });
    try {
      const first = (await runMcpTool(pool, spec, 'pid', {}, run())).content;
      const err = await toolFailureOf(runMcpTool(pool, spec, 'die', {}, run()));
      assert.equal(err.code, 'handler_error');
      assert.equal(err.retryable, false);
      assert.match(err.message, /no longer answers; it is started again on the next call/);
      assert.equal(pool.size(), 0);
      const second = (await runMcpTool(pool, spec, 'pid', {}, run())).content;
      assert.notEqual(second, first);
      assert.equal(c.opens(), 2);
    } finally {
      await pool.closeAll();
    }
  });

  test('a server that exited between calls costs no failure: the call runs on a fresh one', async () => {
    const c = counting();
    const pool = new McpSessions({ open: c.open });
    try {
      const first = (await runMcpTool(pool, spec, 'pid', {}, run())).content;
      assert.equal((await runMcpTool(pool, spec, 'exitSoon', {}, run())).content, 'bye');
      // Wait until the client has seen the process go (asked directly: the pool is not told).
      const old = await pool.get(spec, where());
      for (let i = 0; i < 100; i++) {
        const gone = await old.listTools({ timeoutMs: 1000 }).then(
          () => false,
          () => true,
        );
        if (gone) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(await pool.get(spec, where()), old, 'still pooled: nothing told the pool');
      const second = (await runMcpTool(pool, spec, 'pid', {}, run())).content;
      assert.notEqual(second, first);
      assert.equal(c.opens(), 2);
    } finally {
      await pool.closeAll();
    }
  });

  test('closeVersion closes that version only; the next call opens again', async () => {
    const c = counting();
    const pool = new McpSessions({ open: c.open });
    try {
      const a = await pool.get(spec, where());
      await pool.get(spec, where({ version: '2.0.0' }));
      await pool.closeVersion(mcpVersionKey(pluginDir, '1.0.0'));
      assert.equal(pool.size(), 1);
      assert.equal((await toolFailureOf(a.callTool('pid', {}, { timeoutMs: 1000, maxChars: 100 }))).code, 'handler_error');
      assert.notEqual(await pool.get(spec, where()), a);
      assert.equal(c.opens(), 3);
    } finally {
      await pool.closeAll();
    }
  });

  test('a version closed while its server starts: the connection is closed when it arrives', async () => {
    const pool = new McpSessions();
    const waiting = pool.get(spec, where());
    await pool.closeVersion(mcpVersionKey(pluginDir, '1.0.0'));
    const err = await toolFailureOf(waiting);
    assert.equal(err.code, 'cancelled');
    assert.equal(pool.size(), 0);
  });
});

describe('McpSessions with a double', () => {
  const fakeConn = (label: string) => ({
    label,
    listTools: () => Promise.resolve([]),
    callTool: () => Promise.resolve({ content: label, isError: false, truncated: false }),
    close: () => Promise.resolve(),
  });

  test('a failed open is forgotten: every waiter gets the failure, the next call tries again', async () => {
    let n = 0;
    const pool = new McpSessions({
      open: () => (++n === 1 ? Promise.reject(new ToolFailure('handler_error', 'boom')) : Promise.resolve(fakeConn(`c${n}`))),
    });
    const both = await Promise.allSettled([pool.get(spec, where()), pool.get(spec, where())]);
    assert.deepEqual(
      both.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(n, 1);
    assert.equal(pool.size(), 0);
    assert.equal((await pool.get(spec, where())).label, 'c2');
  });

  test("a caller's signal stops its wait only; the open goes on for the others", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const pool = new McpSessions({ open: () => gate.then(() => fakeConn('shared')) });
    const ac = new AbortController();
    const stopped = pool.get(spec, where({ signal: ac.signal }));
    const other = pool.get(spec, where());
    ac.abort();
    assert.equal((await toolFailureOf(stopped)).code, 'cancelled');
    release();
    assert.equal((await other).label, 'shared');
    assert.equal((await toolFailureOf(pool.get(spec, where({ signal: ac.signal })))).code, 'cancelled');
  });

  test('keys and specs', () => {
    assert.equal(mcpVersionKey('/p/demo', '1.0.0'), '/p/demo@1.0.0');
    assert.notEqual(
      mcpSpecKey({ stdio: { command: 'node', args: ['a b'] } }),
      mcpSpecKey({ stdio: { command: 'node', args: ['a', 'b'] } }),
    );
    assert.equal(mcpSpecKey({ stdio: { command: 'node' } }), mcpSpecKey({ stdio: { command: 'node', args: [] } }));
    assert.deepEqual(mcpSpecOf({ stdio: { command: 'node', args: ['s.mjs'] } }), { stdio: { command: 'node', args: ['s.mjs'] } });
    assert.deepEqual(mcpSpecOf({ url: 'https://x.org/mcp' }), { url: 'https://x.org/mcp' });
    assert.throws(() => mcpSpecOf({}), ToolFailure);
    assert.equal(boundToolName('note_add', {}), 'note_add');
    assert.equal(boundToolName('note_add', { tool: 'addNote' }), 'addNote');
  });
});
