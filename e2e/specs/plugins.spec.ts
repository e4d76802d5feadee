import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { offeredTools } from '../support/modelRequests.js';
import { repoRoot } from '../support/webHost.js';

const FIXTURES = join(repoRoot, 'e2e', 'fixtures', 'plugins');

describe('plugins in Chromium: listed, hot-loaded, offered, run through approval', () => {
  const session = useAppSession();
  let { app, model, plugins } = {} as SharedApp;
  before(async () => ({ app, model, plugins } = await session.openApp()));

  it('(a) the Plugins panel lists the built-in hello@1.0.0 as available, with its tool', async () => {
    const hello = await plugins.waitForPlugin('hello@1.0.0', 'available');
    assert.deepEqual(hello.tools, ['hello.greet']);
    assert.deepEqual(hello.reasons, []);
    assert.match(hello.text, /Hello/);
    assert.match(hello.text, /v1\.0\.0/);
    assert.match(hello.text, /built-in/);
    assert.match(hello.text, /Say hello/);
    assert.match(hello.text, /hello$/m, 'its folder is shown');
    assert.match(hello.text, /passed: 1 self-test case/, 'its self-test results are shown');
    await app.screenshot('p1-plugins-panel');
    await plugins.close();
  });

  it('(b) a plugin copied into the home while the app runs is listed, offered at the next request and runs through approval', async () => {
    await plugins.open();
    assert.ok(!(await plugins.list()).some((p) => p.id === 'stamp@0.1.0'), 'not there before it is copied in');
    session.installPlugin(join(FIXTURES, 'stamp'));
    const stamp = await plugins.waitForPlugin('stamp@0.1.0', 'available');
    assert.deepEqual(stamp.tools, ['stamp.mark']);
    assert.match(stamp.text, /Stamp a note/);
    assert.match(stamp.text, /write/);
    assert.match(stamp.text, /your plugins folder/);
    await app.screenshot('p2-plugin-hot-loaded');
    await plugins.close();

    model.reset();
    model.script([
      (body) =>
        offeredTools(body).includes('stamp_mark')
          ? { text: 'Stamping it.', toolCalls: [{ name: 'stamp_mark', arguments: { note: 'checked by e2e' } }] }
          : { text: `stamp_mark was not offered; got ${offeredTools(body).join(', ')}` },
      { text: 'The note is stamped.' },
    ]);
    await app.askAgent('stamp a note saying: checked by e2e');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /Stamp a note/);
    assert.ok(dialog.text.includes('checked by e2e'), 'the dialog shows the arguments that will run');
    await app.screenshot('p3-plugin-approval');
    await app.approvePending();
    const card = await app.waitForToolCard('stamp_mark', 'ok');
    assert.match(card, /Stamp a note/);
    await app.waitForMessage('assistant', /The note is stamped/);
    assert.ok(offeredTools(model.requests[0]).includes('stamp_mark'), 'offered at the first request after the copy');
    const answer = model.requests[1]!.messages.find((m) => m.role === 'tool');
    assert.match(String(answer?.content), /Stamped: checked by e2e/, 'the model reads what the command printed');
  });

  it('(c) a broken plugin copied in is listed as unavailable with its reason and never offered', async () => {
    session.installPlugin(join(FIXTURES, 'broken'));
    const broken = await plugins.waitForPlugin('broken_demo@0.1.0', 'unavailable');
    assert.equal(broken.reasons.length, 1, `reasons: ${JSON.stringify(broken.reasons)}`);
    assert.match(broken.reasons[0]!, /plugin\.yaml/);
    assert.match(broken.reasons[0]!, /tools\[0\]\.safety/);
    assert.deepEqual(broken.tools, [], 'a broken plugin lists no tools');
    await app.screenshot('p4-plugin-unavailable');
    assert.ok(
      (await plugins.list()).some((p) => p.id === 'hello@1.0.0' && p.state === 'available'),
      'the others stay available',
    );
    await plugins.close();

    model.reset();
    model.script([{ text: 'Nothing to do.' }]);
    await app.askAgent('anything new?');
    await app.waitForMessage('assistant', /Nothing to do/);
    const names = offeredTools(model.requests[0]);
    assert.ok(names.includes('stamp_mark') && !names.some((n) => n.startsWith('broken_demo')), `offered: ${names.join(', ')}`);
  });
});
