import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { lastToolResult, offeredTools } from '../support/modelRequests.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { gisFixtures, repoRoot } from '../support/webHost.js';

const FIXTURES = join(repoRoot, 'e2e', 'fixtures', 'plugins');
const COUNTRIES = join(gisFixtures, 'ne_110m_admin_0_countries.json');

interface AuditRow {
  toolId: string;
  decision: string;
  outcome: string;
}

/**
 * The mcp and module executors as a person meets them: copied into the home while the app runs,
 * probed and listed, offered at the next request. An MCP server's tool counts as write and
 * network whatever its manifest and its hints say — it asks — until the person marks it
 * read-only in the panel; a module runs in its own process and reads the project's layers.
 */
describe('mcp and module plugins in Chromium', () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-plugin-executors-' });
  let { app, model, plugins } = {} as SharedApp;
  let bridge: BridgeSocket | undefined;
  before(async () => ({ app, model, plugins } = await session.openApp()));
  after(() => bridge?.close());

  async function audit(toolId: string): Promise<AuditRow[]> {
    bridge ??= await BridgeSocket.connect(session.host.url);
    const { entries } = await bridge.call<{ entries: AuditRow[] }>('audit/list', { toolId });
    return [...entries].reverse();
  }

  /** The scripted model calls `wireName` with `args`, then answers `done` (unique per step: messages stay on screen). */
  function script(wireName: string, args: Record<string, unknown>, done: string): void {
    model.reset();
    model.script([
      (body) =>
        offeredTools(body).includes(wireName)
          ? { text: 'Calling it.', toolCalls: [{ name: wireName, arguments: args }] }
          : { text: `${wireName} was not offered; got ${offeredTools(body).join(', ')}` },
      { text: done },
    ]);
  }

  it('an MCP tool declared read (and hinted read-only by its server) still asks, as write and network', async () => {
    session.installPlugin(join(FIXTURES, 'mcp-demo'));
    const listed = await plugins.waitForPlugin('mcp_demo@0.1.0', 'available', 30_000);
    assert.deepEqual(listed.tools.sort(), ['mcp_demo.add_note', 'mcp_demo.reverse_text']);
    assert.deepEqual(listed.readOnlyMarks, { 'mcp_demo.add_note': false, 'mcp_demo.reverse_text': false });
    assert.match(listed.text, /passed: 1 endpoint probed/, 'its server answered the probe');
    assert.equal(listed.unsandboxed, true, 'an MCP server runs as the person: the panel says so');
    await app.screenshot('px1-mcp-plugin');
    await plugins.close();

    script('mcp_demo_add_note', { note: 'first' }, 'First note added.');
    await app.askAgent('add a note: first');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /Add a note/);
    assert.ok(dialog.text.includes('first'), 'the dialog shows the arguments');
    await app.screenshot('px2-mcp-asks');
    await app.approvePending();
    await app.waitForMessage('assistant', /First note added/);
    assert.match(lastToolResult(model.requests[1]), /Added note 1: first/, 'the MCP server kept the note');
  });

  it('marked read-only in the panel, the next call runs without a dialog; the audit says who decided', async () => {
    await plugins.markReadOnly('mcp_demo@0.1.0', 'mcp_demo.add_note', true);
    const marked = await plugins.read('mcp_demo@0.1.0');
    assert.deepEqual(marked.readOnlyMarks, { 'mcp_demo.add_note': true, 'mcp_demo.reverse_text': false });
    await app.screenshot('px3-mcp-marked');
    await plugins.close();

    script('mcp_demo_add_note', { note: 'second' }, 'Second note added.');
    await app.askAgent('add a note: second');
    await app.waitForMessage('assistant', /Second note added/);
    assert.match(lastToolResult(model.requests[1]), /Added note 2: second/, 'the same server process, one more note');
    const rows = await audit('mcp_demo.add_note');
    assert.deepEqual(
      rows.map((r) => [r.decision, r.outcome]),
      [
        ['approved', 'ok'],
        ['not_needed', 'ok'],
      ],
    );
  });

  it('a module tool runs in its plugin host and reads the project’s layers through its handle', async () => {
    session.installPlugin(join(FIXTURES, 'module-demo'));
    await plugins.waitForPlugin('module_demo@0.1.0', 'available', 30_000);
    await plugins.close();
    // A layer first, so the handle has something to tell: loaded by the model, approved.
    model.reset();
    model.script([
      { text: 'Loading.', toolCalls: [{ name: 'layers_load', arguments: { path: COUNTRIES } }] },
      (body) =>
        offeredTools(body).includes('module_demo_count_words')
          ? { text: 'Counting.', toolCalls: [{ name: 'module_demo_count_words', arguments: { text: 'one two three four' } }] }
          : { text: `module_demo_count_words was not offered; got ${offeredTools(body).join(', ')}` },
      { text: 'Words counted.' },
    ]);
    await app.askAgent('load the countries, then count the words of: one two three four');
    await app.waitForApproval();
    await app.approvePending();
    await app.waitForMessage('assistant', /Words counted/);
    const answer = JSON.parse(lastToolResult(model.requests[2])) as { data: { result: { words: number; layers: string[] } } };
    assert.deepEqual(answer.data.result, { words: 4, layers: ['ne_110m_admin_0_countries'] }, 'the project handle answered');
    assert.deepEqual(
      (await audit('module_demo.count_words')).map((r) => [r.decision, r.outcome]),
      [['not_needed', 'ok']],
    );
  });
});
