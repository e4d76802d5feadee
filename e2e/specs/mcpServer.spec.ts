import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { gisFixtures, repoRoot } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping browser e2e: ${gisFixtures} is absent`);

/** A port free right now, for `MAPWRIGHT_MCP_HTTP=<port>`. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (result: CallResult) => (result.content as { type: string; text: string }[])[0]?.text ?? '';

const mcpPort = await freePort();

describe('Mapwright as an MCP server: an outside client in front of the app in Chromium', { skip: !haveFixtures }, () => {
  const session = useAppSession({ env: { MAPWRIGHT_MCP_HTTP: String(mcpPort) } });
  let { page, app } = {} as SharedApp;
  let client: Client;

  before(async () => {
    ({ page, app } = await session.openApp());
    const token = readFileSync(join(session.home, 'mcp-token'), 'utf8').trim();
    client = new Client({ name: 'mapwright-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${mcpPort}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
  });
  after(async () => {
    await client?.close().catch(() => undefined);
  });

  it("lists Mapwright's tools with their safety, and runs a read at once", async () => {
    const { tools } = await client.listTools();
    const load = tools.find((t) => t.name === 'layers_load');
    const list = tools.find((t) => t.name === 'inspect_list_layers');
    assert.ok(load && list, 'the model-facing tools are offered');
    assert.equal(list.annotations?.readOnlyHint, true);
    assert.equal(load.annotations?.readOnlyHint, false);
    const listed = await client.callTool({ name: 'inspect_list_layers', arguments: {} });
    assert.equal(listed.isError, undefined, textOf(listed));
    assert.equal(await page.getByTestId('approval-dialog').count(), 0, 'a read raises no dialog');
  });

  it('a write from the client raises the approval dialog in the app; approved there, the layer shows', async () => {
    const pending = client.callTool({ name: 'layers_load', arguments: { path: NC } });
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /MCP client mapwright-e2e 1\.0\.0/, 'the dialog names the client that asks');
    await app.screenshot('mcp1-client-approval');
    await app.approvePending();
    const result = await pending;
    assert.equal(result.isError, undefined, textOf(result));
    await app.waitForLayer('nc');
    const listed = await client.callTool({ name: 'inspect_list_layers', arguments: {} });
    assert.match(textOf(listed), /"nc"/);

    const rows = await app.auditEntries();
    assert.ok(rows.some((r) => r.toolId === 'layers.load' && r.outcome === 'ok'));
    const caller = await page.locator('[data-testid="audit-row"][data-tool-id="layers.load"]').first().locator('td').nth(1).innerText();
    assert.equal(caller, 'client: mapwright-e2e 1.0.0');
  });

  it('a write rejected in the app is an error result for the client', async () => {
    const pending = client.callTool({ name: 'layers_remove', arguments: { layer: 'nc' } });
    await app.rejectPending();
    const result = await pending;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /rejected this call/);
    assert.deepEqual(await app.layerNames(), ['nc']);
  });

  it('with no app window open, a write is refused at once with a clear message', async () => {
    await page.close();
    let result: CallResult | null = null;
    // The host hears the page go within moments; a call in that window is rejected by the close.
    for (let i = 0; i < 20; i++) {
      result = await client.callTool({ name: 'layers_set_opacity', arguments: { layer: 'nc', opacity: 0.5 } });
      if (/No Mapwright window is open/.test(textOf(result))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(result!.isError, true);
    assert.match(textOf(result!), /^No Mapwright window is open to approve layers_set_opacity; open the app and try again\./);
  });
});

describe('the web host prints the MCP endpoint line after its URL line', { skip: !haveFixtures }, () => {
  it('when MAPWRIGHT_MCP_HTTP is on', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mapwright-e2e-mcp-line-'));
    const port = await freePort();
    const child = spawn(process.execPath, [join(repoRoot, 'dist', 'main', 'web-host.js'), '--port', '0'], {
      env: { ...process.env, GDAL_PAM_ENABLED: 'NO', MAPWRIGHT_HOME: home, MAPWRIGHT_MCP_HTTP: String(port), MAPWRIGHT_MODEL_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      const lines: string[] = [];
      const reader = createInterface({ input: child.stdout! });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${lines.length} lines in 20 s`)), 20_000);
        reader.on('line', (line) => {
          lines.push(line);
          if (lines.length === 2) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      assert.match(lines[0]!, /^Mapwright web host: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+$/);
      assert.equal(lines[1], `MCP endpoint: http://127.0.0.1:${port}/mcp (token in ${join(home, 'mcp-token')})`);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(home, { recursive: true, force: true });
    }
  });
});
