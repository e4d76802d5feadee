import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_MCP_HTTP_PORT, mcpHttpPortFromEnv, mcpToken, startHttpEndpoint } from './httpEndpoint.js';
import { mcpTestHost, tempHome, textOf } from './testing/mcpTest.js';

async function setup(maxBodyBytes?: number) {
  const home = tempHome();
  const t = mcpTestHost(home);
  const endpoint = await startHttpEndpoint(t.host, { home, port: 0, ...(maxBodyBytes ? { maxBodyBytes } : {}) });
  after(() => endpoint.close());
  const token = readFileSync(endpoint.tokenPath, 'utf8').trim();
  return { ...t, home, endpoint, token };
}

async function httpClient(url: string, token: string, name = 'inspector'): Promise<Client> {
  const client = new Client({ name, version: '0.9.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  after(() => client.close().catch(() => undefined));
  return client;
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST, to send what an SDK client would not (a foreign Host, an Origin, no token). */
function post(port: number, headers: Record<string, string>, body = INIT, path = '/mcp'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('MCP over loopback streamable HTTP', () => {
  it('an SDK client with the token lists tools, reads, and writes through the approval broker', async () => {
    const { endpoint, token, broker, nextApproval, audit } = await setup();
    assert.match(endpoint.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const c = await httpClient(endpoint.url, token);
    assert.ok((await c.listTools()).tools.some((t) => t.name === 'test_write'));
    assert.deepEqual(JSON.parse(textOf(await c.callTool({ name: 'test_echo', arguments: { n: 3 } }))), { n: 3 });
    const pending = c.callTool({ name: 'test_write', arguments: { value: 'w' } });
    const approval = await nextApproval();
    assert.equal(approval.preview?.requestedBy, 'MCP client inspector 0.9.0');
    broker.decide(approval.id, 'approve', false);
    assert.deepEqual(JSON.parse(textOf(await pending)), { written: 'w' });
    assert.deepEqual(
      audit.list().map((e) => [e.toolId, e.caller, e.client, e.decision]),
      [
        ['test.write', 'client', 'inspector 0.9.0', 'approved'],
        ['test.echo', 'client', 'inspector 0.9.0', 'not_needed'],
      ],
    );
  });

  it('a cancelled HTTP call stops the tool', async () => {
    const { endpoint, token, audit } = await setup();
    const c = await httpClient(endpoint.url, token);
    const abort = new AbortController();
    const pending = c.callTool({ name: 'test_slow', arguments: {} }, undefined, {
      signal: abort.signal,
      onprogress: (p) => {
        if (p.progress >= 0.5) abort.abort();
      },
    });
    await assert.rejects(pending, /abort/i);
    for (let i = 0; i < 50 && audit.list().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(audit.list()[0]?.errorCode, 'cancelled');
  });

  it('a missing or wrong token is 401, and no session starts', async () => {
    const { endpoint, token } = await setup();
    const missing = await post(endpoint.port, {});
    assert.equal(missing.status, 401);
    assert.match(missing.body, /Authorization: Bearer/);
    // One character off (a token that already ends in 0 gets a 1: replacing its 0 by 0 would be the token itself).
    const wrong = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    assert.equal((await post(endpoint.port, { Authorization: `Bearer ${wrong}` })).status, 401);
    assert.equal((await post(endpoint.port, { Authorization: `Basic ${token}` })).status, 401);
    const client = new Client({ name: 'x', version: '1' });
    await assert.rejects(
      client.connect(
        new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { Authorization: 'Bearer nope' } } }),
      ),
      /401|Unauthorized/,
    );
    assert.equal((await post(endpoint.port, { Authorization: `Bearer ${token}` })).status, 200);
  });

  it('refuses a foreign Host (DNS rebinding), any browser Origin, other paths and oversized bodies', async () => {
    const { endpoint, token } = await setup(2048);
    const auth = { Authorization: `Bearer ${token}` };
    assert.equal((await post(endpoint.port, { ...auth, Host: `evil.example:${endpoint.port}` })).status, 403);
    assert.equal((await post(endpoint.port, { ...auth, Host: `127.0.0.1:${endpoint.port + 1}` })).status, 403);
    assert.equal((await post(endpoint.port, { ...auth, Host: `localhost:${endpoint.port}` })).status, 200);
    assert.equal((await post(endpoint.port, { ...auth, Origin: 'https://evil.example' })).status, 403);
    assert.equal((await post(endpoint.port, { ...auth, Origin: `http://127.0.0.1:${endpoint.port}` })).status, 403);
    assert.equal((await post(endpoint.port, auth, INIT, '/other')).status, 404);
    assert.equal((await post(endpoint.port, auth, JSON.stringify({ pad: 'x'.repeat(4096) }))).status, 413);
    assert.equal(
      (await post(endpoint.port, { ...auth, 'Transfer-Encoding': 'chunked' }, JSON.stringify({ pad: 'x'.repeat(8192) }))).status,
      413,
    );
    assert.equal((await post(endpoint.port, auth, '{not json')).status, 400);
    assert.equal((await post(endpoint.port, { ...auth, 'Mcp-Session-Id': 'made-up' }, INIT)).status, 404);
  });

  it('keeps its token in <home>/mcp-token, 0600, reused across runs', async () => {
    const home = tempHome();
    const first = mcpToken(home);
    assert.match(first.token, /^[0-9a-f]{64}$/);
    assert.equal(first.path, join(home, 'mcp-token'));
    if (process.platform !== 'win32') assert.equal(statSync(first.path).mode & 0o777, 0o600);
    assert.equal(mcpToken(home).token, first.token);
    writeFileSync(first.path, 'short\n');
    assert.notEqual(mcpToken(home).token, 'short', 'a damaged token is replaced');
  });

  it('reads MAPWRIGHT_MCP_HTTP: off by default, 1 for the default port, or a port', () => {
    assert.deepEqual(mcpHttpPortFromEnv({}), { port: null });
    assert.deepEqual(mcpHttpPortFromEnv({ MAPWRIGHT_MCP_HTTP: '0' }), { port: null });
    assert.deepEqual(mcpHttpPortFromEnv({ MAPWRIGHT_MCP_HTTP: '1' }), { port: DEFAULT_MCP_HTTP_PORT });
    assert.deepEqual(mcpHttpPortFromEnv({ MAPWRIGHT_MCP_HTTP: 'true' }), { port: DEFAULT_MCP_HTTP_PORT });
    assert.deepEqual(mcpHttpPortFromEnv({ MAPWRIGHT_MCP_HTTP: '8811' }), { port: 8811 });
    assert.ok('error' in mcpHttpPortFromEnv({ MAPWRIGHT_MCP_HTTP: '80' }));
    assert.ok('error' in mcpHttpPortFromEnv({ MAPWRIGHT_MCP_HTTP: 'yes please' }));
  });
});
