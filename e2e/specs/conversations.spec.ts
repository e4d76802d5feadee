import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ReceivedRequest } from '../model-server/scriptedModelServer.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { gisFixtures, startWebHost } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping conversations e2e: ${gisFixtures} is absent`);

const toolNames = (r: ReceivedRequest | undefined) => (r?.tools ?? []).map((t) => t.function.name);

describe('conversations and skills in Chromium against the web host', { skip: !haveFixtures }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-conv-' });
  let { page, app, model, conversations } = {} as SharedApp;
  before(async () => ({ page, app, model, conversations } = await session.openApp()));

  it('the first conversation: the model loads the layers skill, gets its tools, and loads a layer', async () => {
    model.reset();
    model.script([
      { text: 'Loading the layers skill first.', toolCalls: [{ name: 'skills_load_skill', arguments: { name: 'layers' } }] },
      (body) =>
        toolNames(body).includes('layers_load')
          ? { toolCalls: [{ name: 'layers_load', arguments: { path: NC } }] }
          : { text: 'layers_load was not offered after loading the skill.' },
      { text: 'Loaded the 100 North Carolina counties.' },
    ]);
    assert.equal(await conversations.currentTitle(), 'New conversation');
    await app.askAgent('load the NC counties');
    await app.approvePending();
    await app.waitForMessage('assistant', /Loaded the 100 North Carolina counties/);
    await app.waitForLayer('nc');

    const [first, second] = model.requests;
    // Progressive disclosure, as the model received it.
    assert.ok(toolNames(first).includes('skills_load_skill'));
    assert.ok(!toolNames(first).includes('layers_load'), 'layers tools are not offered before the skill is loaded');
    const loadSkill = first!.tools!.find((t) => t.function.name === 'skills_load_skill')!;
    // The built-in skills, and the one the built-in terrain-hazard plugin brings.
    assert.deepEqual((loadSkill.function.parameters as { properties: { name: { enum: string[] } } }).properties.name.enum, [
      'editing',
      'inspect',
      'landslide-susceptibility',
      'layers',
      'memory',
      'processing',
      'style',
    ]);
    const system = String(first!.messages[0]!.content);
    assert.match(system, /Skills \(load with skills_load_skill\):\n- inspect \(loaded\): /);
    assert.match(system, /Skill inspect \(loaded\):\n# Inspect/);
    assert.ok(!system.includes('# Layers'), 'the layers body is not in the system prompt');
    const skillResult = second!.messages.find((m) => m.role === 'tool')!;
    assert.match(String(skillResult.content), /"skill":"layers","instructions":"# Layers/);
    assert.ok(toolNames(second).includes('layers_load'), 'the second request offers the layers tools');
    await conversations.waitForCurrentTitle('load the NC counties');
    await app.screenshot('conv-1-first-conversation');
  });

  it('a second conversation in the same project; New is refused while a run is live', async () => {
    await conversations.startNew();
    assert.deepEqual(await app.messages(), [], 'a new conversation starts empty');
    model.reset();
    model.script([{ text: 'nc is in EPSG:4267 (NAD27). '.repeat(6), delayMs: 120, chunkSize: 6 }]);
    await app.askAgent('what is the CRS of nc?');
    await page.getByTestId('stop-run').waitFor({ state: 'visible' });
    assert.equal(await conversations.isNewEnabled(), false, 'New is disabled while the run is live');
    assert.equal(await conversations.canOpen('load the NC counties'), false, 'opening another conversation is disabled too');
    await app.screenshot('conv-2-switch-refused-while-running');
    await conversations.hideList();
    await app.waitForRunIdle();
    await app.waitForMessage('assistant', /EPSG:4267/);
    const list = await conversations.list();
    assert.deepEqual(
      list.map((c) => c.title),
      ['what is the CRS of nc?', 'load the NC counties'],
    );
    assert.deepEqual(
      list.map((c) => c.current),
      [true, false],
    );
    await app.screenshot('conv-3-list-two-conversations');
    await conversations.hideList();
  });

  it('after a reload and a host restart both are listed and restored, tool cards included', async () => {
    const secondMessages = await app.messages();
    await app.reload();
    await conversations.waitForCurrentTitle('what is the CRS of nc?');
    assert.deepEqual(await app.messages(), secondMessages, 'the current conversation is restored');

    await session.restartHostAndReopen(app);
    assert.deepEqual(
      (await conversations.list()).map((c) => c.title),
      ['what is the CRS of nc?', 'load the NC counties'],
    );

    await conversations.open('load the NC counties');
    const restored = await app.messages();
    assert.deepEqual(
      restored.map((m) => m.role),
      // The second assistant turn only called a tool: its (empty, hidden) message is still there.
      ['user', 'assistant', 'tool', 'assistant', 'tool', 'notice', 'assistant'],
      JSON.stringify(restored),
    );
    assert.match(restored[2]!.text, /Load skill/);
    assert.match(restored[4]!.text, /Load layer/);
    assert.match(restored.at(-1)!.text, /Loaded the 100 North Carolina counties/);
    await app.screenshot('conv-4-restored-after-restart');
  });

  it('rename and delete from the list', async () => {
    await conversations.rename('load the NC counties', 'NC counties');
    await conversations.hideList();
    await conversations.waitForCurrentTitle('NC counties');
    await conversations.remove('what is the CRS of nc?');
    assert.deepEqual(await conversations.list(), [{ title: 'NC counties', current: true }]);
    await app.screenshot('conv-5-renamed-and-deleted');
    await app.reload();
    assert.deepEqual(await conversations.list(), [{ title: 'NC counties', current: true }]);
  });

  it('a long conversation on a small context: older turns are summarised for the model, and stay in the chat', async () => {
    const smallHome = mkdtempSync(join(tmpdir(), 'mapwright-e2e-compact-'));
    const small = await startWebHost({
      MAPWRIGHT_HOME: smallHome,
      MAPWRIGHT_MODEL_URL: model.url,
      MAPWRIGHT_MODEL: 'scripted',
      MAPWRIGHT_CONTEXT_CHARS: '20000',
    });
    try {
      await app.open(small.url);
      const long = (i: number) => `Answer ${i}: ${'the counties are in NAD27, EPSG:4267. '.repeat(40)}`;
      for (let i = 1; i <= 4; i++) {
        model.reset();
        model.script([{ text: long(i), chunkSize: 400 }]);
        await app.askAgent(`question ${i}`);
        await app.waitForMessage('assistant', new RegExp(`^Answer ${i}:`));
        await app.waitForRunIdle();
      }
      const system = String(model.requests.at(-1)!.messages[0]!.content);
      assert.match(system, /Earlier in this conversation \(summarised\):\nSummary of earlier turns, built by Mapwright/);
      assert.ok(!model.requests.at(-1)!.messages.some((m) => m.content === 'question 1'), 'the folded turn is not sent in full');
      const shown = await app.messages();
      assert.ok(
        shown.some((m) => m.role === 'user' && m.text === 'question 1'),
        'the folded turn is still in the chat',
      );
      const marker = page.locator('[data-compaction="true"]');
      assert.ok((await marker.count()) >= 1);
      await marker.first().locator('summary').click();
      await app.screenshot('conv-6-compaction-summary');
      assert.match(await marker.first().innerText(), /• Person: "question 1"/);
    } finally {
      await small.stop();
      rmSync(smallHome, { recursive: true, force: true });
    }
  });
});
