import assert from 'node:assert/strict';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { testTool } from '../../src-shared/tools/testing/testTool.js';
import { startLocalSocketEndpoint } from './localSocketEndpoint.js';
import { mcpSocketPath } from './socketPath.js';
import { mcpTestHost, socketClient, tempHome, textOf } from './testing/mcpTest.js';

const unix = process.platform !== 'win32';

async function setup() {
  const home = tempHome();
  const t = mcpTestHost(home);
  const endpoint = await startLocalSocketEndpoint(t.host, mcpSocketPath(home));
  assert.ok(endpoint);
  after(() => endpoint.close());
  const clients: Client[] = [];
  const client = async (name?: string) => {
    const c = await socketClient(endpoint.path, name);
    clients.push(c);
    return c;
  };
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
  });
  return { ...t, home, endpoint, client };
}

describe('MCP server over the local socket', () => {
  it('lists the tools the model may call, with our own safety facts as annotations', async () => {
    const { client } = await setup();
    const c = await client();
    const { tools } = await c.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual([...byName.keys()].sort(), ['test_drop', 'test_echo', 'test_fetch', 'test_slow', 'test_write'], 'no user-only tool');
    const echo = byName.get('test_echo')!;
    assert.equal(echo.description, 'Returns its input.');
    assert.equal(echo.inputSchema.type, 'object');
    assert.deepEqual(Object.keys(echo.inputSchema.properties ?? {}), ['n']);
    assert.deepEqual(echo.annotations, { title: 'Echo', readOnlyHint: true, openWorldHint: false });
    assert.deepEqual(byName.get('test_write')!.annotations, {
      title: 'Write',
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    });
    assert.equal(byName.get('test_drop')!.annotations?.destructiveHint, true);
    assert.equal(byName.get('test_fetch')!.annotations?.openWorldHint, true);
    assert.equal(c.getServerVersion()?.name, 'mapwright');
  });

  it('a plugin arriving or leaving tells the client its tool list changed (only when it did)', async () => {
    const { client, registry, watch } = await setup();
    const c = await client();
    let told = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, async () => void told++);
    watch.check();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(told, 0, 'nothing changed: nothing said');
    registry.setGroup('plugin:hot', [
      testTool({
        id: 'hot.tool',
        title: 'Hot',
        description: 'Came with a plugin.',
        input: z.object({}),
        safety: 'read',
        summary: () => 'hot',
        execute: async () => 1,
      }),
    ]);
    watch.check();
    const deadline = Date.now() + 5000;
    while (told === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(told, 1);
    assert.ok(
      (await c.listTools()).tools.some((t) => t.name === 'hot_tool'),
      'the new list has it',
    );
  });

  it('runs a read at once; the audit records caller client and the client name', async () => {
    const { client, audit, requests } = await setup();
    const c = await client('Claude Desktop');
    const result = await c.callTool({ name: 'test_echo', arguments: { n: 7 } });
    assert.equal(result.isError, undefined);
    assert.deepEqual(JSON.parse(textOf(result)), { n: 7 });
    assert.equal(requests.length, 0, 'a read asks nobody');
    const [row] = audit.list();
    assert.deepEqual(
      [row!.toolId, row!.caller, row!.client, row!.decision, row!.outcome, row!.conversationId],
      ['test.echo', 'client', 'Claude Desktop 1.2.3', 'not_needed', 'ok', null],
    );
    assert.deepEqual(
      audit.list({ caller: 'client' }).map((e) => e.toolId),
      ['test.echo'],
    );
  });

  it('a write asks the app; approved, it runs and the dialog named the client', async () => {
    const { client, audit, broker, nextApproval } = await setup();
    const c = await client('cursor');
    const pending = c.callTool({ name: 'test_write', arguments: { value: 'x' } });
    const request = await nextApproval();
    assert.equal(request.toolId, 'test.write');
    assert.equal(request.summary, 'write x');
    assert.equal(request.preview?.requestedBy, 'MCP client cursor 1.2.3');
    assert.ok(broker.decide(request.id, 'approve', false));
    const result = await pending;
    assert.equal(result.isError, undefined);
    assert.deepEqual(JSON.parse(textOf(result)), { written: 'x' });
    const [row] = audit.list();
    assert.deepEqual([row!.caller, row!.client, row!.decision, row!.decidedBy], ['client', 'cursor 1.2.3', 'approved', 'user']);
  });

  it('a rejected write is an error result with the reason; invalid arguments and unknown tools too', async () => {
    const { client, broker, nextApproval } = await setup();
    const c = await client();
    const pending = c.callTool({ name: 'test_write', arguments: { value: 'y' } });
    broker.decide((await nextApproval()).id, 'reject', false);
    const rejected = await pending;
    assert.equal(rejected.isError, true);
    assert.match(textOf(rejected), /The person rejected this call \(test\.write\)/);
    assert.match(textOf(rejected), /code: rejected_by_user/);

    const invalid = await c.callTool({ name: 'test_echo', arguments: { n: 'seven' } });
    assert.equal(invalid.isError, true);
    assert.match(textOf(invalid), /Invalid arguments for test_echo: n:/);
    const unknown = await c.callTool({ name: 'test_ecko', arguments: {} });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /There is no tool 'test_ecko'[\s\S]*Did you mean: test_echo/);
  });

  it('with no window open, a write is refused at once with a clear error, and audited', async () => {
    const { client, state, audit, requests } = await setup();
    state.window = false;
    const c = await client();
    const result = await c.callTool({ name: 'test_write', arguments: { value: 'z' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^No Mapwright window is open to approve test_write; open the app and try again\./);
    assert.match(textOf(result), /code: not_allowed/);
    assert.equal(requests.length, 0, 'no dialog left pending');
    const [row] = audit.list();
    assert.deepEqual([row!.decision, row!.decidedBy, row!.errorCode, row!.caller], ['refused', 'system', 'not_allowed', 'client']);
    // A read needs no window.
    assert.equal((await c.callTool({ name: 'test_echo', arguments: { n: 1 } })).isError, undefined);
  });

  it('the policy treats a client as the model: Plan mode, user-only tools, session grants, Auto', async () => {
    const { client, state, broker, nextApproval, requests } = await setup();
    const c = await client();
    state.mode = 'plan';
    const planned = await c.callTool({ name: 'test_write', arguments: { value: 'p' } });
    assert.match(textOf(planned), /^Plan mode: test\.write changes the project/);
    const privateCall = await c.callTool({ name: 'test_private', arguments: {} });
    assert.match(textOf(privateCall), /can only be run by the person/);

    state.mode = 'ask';
    const first = c.callTool({ name: 'test_write', arguments: { value: 'g' } });
    const request = await nextApproval();
    assert.equal(request.rememberable, true);
    broker.decide(request.id, 'approve', true);
    await first;
    const granted = await c.callTool({ name: 'test_write', arguments: { value: 'h' } });
    assert.equal(granted.isError, undefined, 'the session grant applies to the client too');
    assert.equal(requests.length, 1);

    state.mode = 'auto';
    const destructive = c.callTool({ name: 'test_drop', arguments: {} });
    const asked = await nextApproval();
    assert.equal(asked.toolId, 'test.drop', 'destructive always asks, even in Auto');
    broker.decide(asked.id, 'approve', false);
    assert.equal((await destructive).isError, undefined);
  });

  it('sends progress when asked to, and a cancelled call stops the tool', async () => {
    const { client, audit } = await setup();
    const c = await client();
    const seen: { progress: number; message?: string }[] = [];
    const abort = new AbortController();
    const pending = c.callTool({ name: 'test_slow', arguments: {} }, undefined, {
      signal: abort.signal,
      onprogress: (p) => {
        seen.push({ progress: p.progress, ...(p.message ? { message: p.message } : {}) });
        if (seen.length === 2) abort.abort();
      },
    });
    await assert.rejects(pending, /abort/i);
    assert.deepEqual(seen, [
      { progress: 0.25, message: 'a quarter' },
      { progress: 0.5, message: 'half' },
    ]);
    // The server hears notifications/cancelled: the call ends as cancelled in the audit.
    for (let i = 0; i < 50 && audit.list().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const [row] = audit.list();
    assert.deepEqual([row!.toolId, row!.errorCode], ['test.slow', 'cancelled']);
  });

  it('a client that disconnects while its write awaits approval withdraws the dialog', async () => {
    const { client, broker, nextApproval, audit } = await setup();
    const c = await client();
    void c.callTool({ name: 'test_write', arguments: { value: 'gone' } }).catch(() => undefined);
    await nextApproval();
    await c.close();
    for (let i = 0; i < 50 && broker.list().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(broker.list().length, 0);
    const [row] = audit.list();
    assert.deepEqual([row!.decision, row!.errorCode], ['rejected', 'cancelled']);
  });

  it('serves several clients at once, one session each', async () => {
    const { client } = await setup();
    const [a, b] = await Promise.all([client('a'), client('b')]);
    const [ra, rb] = await Promise.all([
      a.callTool({ name: 'test_echo', arguments: { n: 1 } }),
      b.callTool({ name: 'test_echo', arguments: { n: 2 } }),
    ]);
    assert.deepEqual([JSON.parse(textOf(ra)).n, JSON.parse(textOf(rb)).n], [1, 2]);
  });
});

describe('the local socket file', { skip: !unix }, () => {
  it('is private to the user and removed on close', async () => {
    const { endpoint } = await setup();
    assert.equal(statSync(endpoint.path).mode & 0o777, 0o600);
    await endpoint.close();
    assert.equal(existsSync(endpoint.path), false);
  });

  it('a stale file is replaced; a live one is left to the app that serves it', async () => {
    const home = tempHome();
    const t = mcpTestHost(home);
    const path = mcpSocketPath(home);
    writeFileSync(path, '');
    const endpoint = await startLocalSocketEndpoint(t.host, path);
    assert.ok(endpoint, 'a file nobody answers on is stale');
    after(() => endpoint.close());
    const c = await socketClient(path);
    assert.equal((await c.listTools()).tools.length, 5);
    await c.close();

    const other = join(tempHome(), 'mcp.sock');
    const live = createServer(() => undefined);
    await new Promise<void>((r) => live.listen(other, r));
    after(() => new Promise<void>((r) => live.close(() => r())));
    assert.equal(await startLocalSocketEndpoint(t.host, other), null, 'another app already serves there');
    assert.ok(existsSync(other));
  });
});
