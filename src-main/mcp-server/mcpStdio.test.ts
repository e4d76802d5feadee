import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startLocalSocketEndpoint } from './localSocketEndpoint.js';
import { mcpSocketPath } from './socketPath.js';
import { mcpTestHost, tempHome, textOf } from './testing/mcpTest.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = join(root, 'scripts', 'mcp-stdio.ts');

/** `npm run mcp` as a client spawns it: the script under tsx, with this data folder. */
function stdioTransport(home: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', script],
    env: { ...(process.env as Record<string, string>), MAPWRIGHT_HOME: home },
    cwd: root,
    stderr: 'pipe',
  });
}

describe('npm run mcp (the stdio bridge)', () => {
  it('with no app running, answers every request with an error that says so and how to start it', async () => {
    const home = tempHome();
    const client = new Client({ name: 'claude-desktop', version: '1' });
    await assert.rejects(client.connect(stdioTransport(home)), (err: Error) => {
      assert.match(err.message, /Mapwright is not running/);
      assert.match(err.message, /npm run web/);
      assert.ok(err.message.includes(home), 'names the data folder it looked in');
      return true;
    });
    await client.close();
  });

  it('prints nothing but JSON-RPC on stdout and exits when stdin closes', async () => {
    const home = tempHome();
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: { ...process.env, MAPWRIGHT_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    child.stdin.end('{"jsonrpc":"2.0","id":"two","method":"ping"}\n');
    assert.equal(await exited, 0);
    const lines = out.trim().split('\n');
    assert.equal(lines.length, 2, 'one answer per request, none for the notification');
    const answers = lines.map((l) => JSON.parse(l) as { id: unknown; error: { message: string } });
    assert.deepEqual(
      answers.map((a) => a.id),
      [1, 'two'],
    );
    for (const a of answers) assert.match(a.error.message, /Mapwright is not running/);
  });

  it("relays to the running app's socket: list and call as the client it is", async () => {
    const home = tempHome();
    const t = mcpTestHost(home);
    const endpoint = await startLocalSocketEndpoint(t.host, mcpSocketPath(home));
    assert.ok(endpoint);
    after(() => endpoint.close());
    const client = new Client({ name: 'claude-desktop', version: '0.14' });
    await client.connect(stdioTransport(home));
    after(() => client.close());
    assert.equal((await client.listTools()).tools.length, 5);
    const pending = client.callTool({ name: 'test_write', arguments: { value: 'via stdio' } });
    t.broker.decide((await t.nextApproval()).id, 'approve', false);
    assert.deepEqual(JSON.parse(textOf(await pending)), { written: 'via stdio' });
    assert.equal(t.audit.list()[0]?.client, 'claude-desktop 0.14');
  });
});
