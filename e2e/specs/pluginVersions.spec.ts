import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ReceivedRequest } from '../model-server/scriptedReply.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { lastToolResult, offeredTools } from '../support/modelRequests.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { repoRoot } from '../support/webHost.js';

const FIXTURES = join(repoRoot, 'e2e', 'fixtures', 'plugins');

/** The stamp tool as a request offered it to the model, if it did. */
const stampTool = (request: ReceivedRequest | undefined) => (request?.tools ?? []).find((t) => t.function.name === 'stamp_mark');

interface AuditRow {
  conversationId: string | null;
  toolId: string;
  toolVersion: string | null;
  args: unknown;
}

describe('plugin versions and choices in Chromium: v1 → v2 while a conversation stays on v1; a plugin switched off', () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-plugin-versions-' });
  let { app, model, plugins, conversations } = {} as SharedApp;
  let bridge: BridgeSocket | undefined;
  before(async () => ({ app, model, plugins, conversations } = await session.openApp()));
  after(() => bridge?.close());

  /**
   * One exchange: the scripted model calls stamp_mark with `note`, the person approves, the
   * model answers. Returns what the model was offered and what the tool answered it.
   */
  async function stamp(note: string): Promise<{ description: string; result: string }> {
    model.reset();
    model.script([
      (body) =>
        offeredTools(body).includes('stamp_mark')
          ? { text: 'Stamping it.', toolCalls: [{ name: 'stamp_mark', arguments: { note } }] }
          : { text: `stamp_mark was not offered; got ${offeredTools(body).join(', ')}` },
      { text: `Done: ${note}.` },
    ]);
    await app.askAgent(`stamp a note saying: ${note}`);
    const dialog = await app.waitForApproval();
    assert.ok(dialog.text.includes(note), 'the dialog shows the arguments that will run');
    await app.approvePending();
    await app.waitForMessage('assistant', new RegExp(`Done: ${note}`));
    assert.equal(model.requests.length, 2, 'one request to call the tool, one with its result');
    return { description: stampTool(model.requests[0])?.function.description ?? '', result: lastToolResult(model.requests[1]) };
  }

  /** The audit's stamp.mark calls, oldest first, straight from the bridge. */
  async function stampAudit(): Promise<AuditRow[]> {
    bridge ??= await BridgeSocket.connect(session.host.url);
    const { entries } = await bridge.call<{ entries: AuditRow[] }>('audit/list', { toolId: 'stamp.mark' });
    return [...entries].reverse();
  }

  it('conversation A pins stamp 0.1.0; with 0.2.0 installed beside it A stays on 0.1.0; a new conversation B gets 0.2.0', async () => {
    // v1 in the home, while the app runs.
    session.installPlugin(join(FIXTURES, 'stamp'), 'stamp-0.1.0');
    const v1 = await plugins.waitForPlugin('stamp@0.1.0', 'available');
    assert.equal(v1.version, '0.1.0');
    assert.match(v1.dir, /stamp-0\.1\.0$/, 'the source folder is shown');
    assert.equal(v1.enabled, true, 'a new plugin is on');
    assert.deepEqual(v1.readOnlyMarks, {}, 'no read-only mark for a command tool (MCP tools only)');
    await plugins.close();

    // Conversation A meets stamp at 0.1.0.
    const a1 = await stamp('first in A');
    assert.doesNotMatch(a1.description, /0\.2\.0/);
    assert.match(a1.result, /Stamped: first in A/);
    assert.doesNotMatch(a1.result, /v0\.2\.0/);

    // v2 beside v1: both listed, both available (v1 stays for the conversations pinned to it).
    session.installPlugin(join(FIXTURES, 'stamp-v2'), 'stamp-0.2.0');
    const v2 = await plugins.waitForPlugin('stamp@0.2.0', 'available');
    assert.equal(v2.version, '0.2.0');
    assert.match(v2.dir, /stamp-0\.2\.0$/);
    assert.ok(
      (await plugins.list()).some((p) => p.id === 'stamp@0.1.0' && p.state === 'available'),
      '0.1.0 stays listed and available beside 0.2.0',
    );
    await app.screenshot('pv1-two-versions-listed');
    await plugins.close();

    // A's next request: still 0.1.0, in what the model is offered and in what runs.
    const a2 = await stamp('second in A');
    assert.doesNotMatch(a2.description, /0\.2\.0/, `A was offered: ${a2.description}`);
    assert.match(a2.result, /Stamped: second in A/);
    assert.doesNotMatch(a2.result, /v0\.2\.0/, 'A still runs 0.1.0');

    // A new conversation gets the newest version.
    await conversations.startNew();
    const b1 = await stamp('first in B');
    assert.match(b1.description, /Version 0\.2\.0/, `B was offered: ${b1.description}`);
    assert.match(b1.result, /Stamped by v0\.2\.0: first in B/);
    await app.screenshot('pv2-new-conversation-on-v2');

    // The audit says which version each call ran, per conversation.
    const audit = await stampAudit();
    assert.deepEqual(
      audit.map((e) => [(e.args as { note?: string }).note, e.toolVersion]),
      [
        ['first in A', '0.1.0'],
        ['second in A', '0.1.0'],
        ['first in B', '0.2.0'],
      ],
    );
    assert.equal(audit[0]!.conversationId, audit[1]!.conversationId, 'both A calls in one conversation');
    assert.notEqual(audit[2]!.conversationId, audit[0]!.conversationId, 'B is another conversation');
  });

  it('a plugin switched off in the panel is not offered at the next request, stays off after a restart, and comes back when switched on', async () => {
    await plugins.waitForPlugin('stamp@0.2.0', 'available');
    await plugins.setEnabled('stamp@0.2.0', false);
    const off = await plugins.read('stamp@0.1.0');
    assert.equal(off.enabled, false, 'the switch is per plugin: every version of stamp is off');
    assert.equal(off.state, 'available', 'switched off is not unavailable: the state stays');
    await app.screenshot('pv3-plugin-switched-off');
    await plugins.close();

    const ask = async (text: string) => {
      model.reset();
      model.script([{ text: `Answered: ${text}` }]);
      await app.askAgent(text);
      await app.waitForMessage('assistant', new RegExp(`Answered: ${text}`));
      return offeredTools(model.requests[0]);
    };
    assert.ok(!(await ask('anything to stamp')).includes('stamp_mark'), 'a switched-off plugin is not offered');

    // The choice is the project's: a host restart (and a reload) keeps it.
    await session.restartHostAndReopen(app);
    const afterRestart = await plugins.waitForPlugin('stamp@0.2.0', 'available');
    assert.equal(afterRestart.enabled, false, 'still off after a restart');
    assert.equal((await plugins.read('stamp@0.1.0')).enabled, false);
    await app.reload();
    assert.equal((await plugins.waitForPlugin('stamp@0.2.0', 'available')).enabled, false, 'still off after a reload');
    await plugins.close();
    assert.ok(!(await ask('still nothing to stamp')).includes('stamp_mark'), 'still not offered after the restart');

    await plugins.setEnabled('stamp@0.2.0', true);
    assert.equal((await plugins.read('stamp@0.1.0')).enabled, true);
    await plugins.close();
    assert.ok((await ask('stamp is back')).includes('stamp_mark'), 'switched on again, it is offered again');
  });
});
