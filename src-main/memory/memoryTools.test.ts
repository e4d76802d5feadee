/**
 * Memory (issue 17) through the real tool host, dispatcher and app settings file: the model
 * remembers (the person approves the exact text), recalls and lists; only the person edits and
 * deletes — `memory.remove` is never offered to the model and is refused if it names it; each
 * request carries an excerpt of what is kept, scoped to the person and the open project.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { EventName } from '../../src-shared/bridge/contract.js';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { MAX_MEMORIES, type Memory } from '../../src-shared/domain/memory.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { createLoadSkillTool } from '../../tools/skills/loadSkill.js';
import { TurnRequests } from '../agent/turnRequests.js';
import { createToolHost } from '../composition/createToolHost.js';
import { DEFAULT_CONVERSATION_SETTINGS } from '../conversations/conversationSettings.js';
import { PrivatePaths } from '../security/privatePaths.js';
import { openAppSettingsDb } from '../settings/appSettingsDb.js';
import { SkillCatalogue } from '../skills/skillCatalogue.js';
import { tempHomes } from '../store/testing/tempHomes.js';
import { ProjectStore } from '../store/projectStore.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { MEMORY_EXCERPT_HEAD } from './memoryExcerpt.js';
import { createMemoryHandle } from './memoryHandle.js';

const freshHome = tempHomes('mapwright-memory-tools-');
const skills = () => new SkillCatalogue([{ dir: join(import.meta.dirname, '..', '..', 'skills'), origin: 'built-in' }]);

/** One app home; `project` opens (or reopens) a project file in it, sharing the app settings file. */
function app(home = freshHome()) {
  const appDb = openAppSettingsDb(home);
  function project(file = 'a.mapwright') {
    const store = ProjectStore.open(join(home, file));
    const changes: Memory[][] = [];
    const asked: ApprovalRequest[] = [];
    const memory = createMemoryHandle({ repo: () => appDb.memories, project: () => store.info.path, changed: (m) => changes.push(m) });
    const catalogue = skills();
    const tools = createToolHost({
      store,
      worker: {} as GisWorkerClient,
      emit: (name: EventName, payload: unknown) => {
        if (name === 'approval/requested') asked.push(payload as ApprovalRequest);
      },
      privatePaths: new PrivatePaths([join(home, 'private')]),
      egress: { openFor: () => () => undefined, recent: () => [] },
      runIsLive: () => false,
      send: () => undefined,
      extraTools: [createLoadSkillTool(catalogue) as unknown as ToolDefinition],
      memory,
    });
    /** A model call; a dialog it raises is answered `answer` (approve by default). */
    async function asModel(name: string, args: Record<string, unknown>, answer: 'approve' | 'reject' = 'approve') {
      const before = asked.length;
      const pending = tools.dispatcher.dispatch({
        name,
        rawArgs: JSON.stringify(args),
        caller: 'model',
        callId: `c-${Math.random()}`,
        runId: 'run-1',
        conversationId: store.conversationId,
        signal: new AbortController().signal,
      });
      for (let i = 0; i < 50 && asked.length === before; i++) await new Promise((r) => setTimeout(r, 5));
      const dialog = asked[before] ?? null;
      if (dialog) tools.approvals.decide(dialog.id, answer, false);
      return { dialog, result: (await pending).result };
    }
    const turns = new TurnRequests({
      store,
      registry: tools.registry,
      skills: catalogue,
      settings: DEFAULT_CONVERSATION_SETTINGS,
      memories: () => memory.list(),
    });
    /** The next request of a new run after the person says `text`, with the memory skill loaded or not. */
    async function request(text: string, loadMemorySkill = false) {
      const saver = {
        save: (draft: Parameters<typeof store.conversations.upsert>[1]) => store.conversations.upsert(store.conversationId, draft),
      };
      saver.save({ id: `u-${Math.random()}`, role: 'user', text });
      const run = turns.startRun(saver);
      if (loadMemorySkill) run.skills.load('memory');
      const req = await run.next();
      return { system: String(req.messages[0]!.content), tools: req.tools.map((t) => t.name) };
    }
    const close = () => store.close();
    return { store, tools, memory, changes, asModel, request, close };
  }
  return { appDb, project, home };
}

describe('memory tools', () => {
  it('the model remembers what the person approves: the dialog shows the exact text that is kept', async () => {
    const a = app();
    const p = a.project();
    const { dialog, result } = await p.asModel('memory_remember', { text: '  Rivers layer\nis in EPSG:2169 ', scope: 'project' });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(dialog!.toolId, 'memory.remember');
    assert.equal(dialog!.summary, 'Remember (project): “Rivers layer is in EPSG:2169”');
    assert.deepEqual(dialog!.preview, { scope: 'project', text: 'Rivers layer is in EPSG:2169' });
    assert.deepEqual(dialog!.args, { text: 'Rivers layer is in EPSG:2169', scope: 'project' });
    assert.deepEqual(
      p.memory.list().map((m) => [m.scope, m.text]),
      [['project', 'Rivers layer is in EPSG:2169']],
    );
    assert.deepEqual(
      p.changes.at(-1)!.map((m) => m.text),
      ['Rivers layer is in EPSG:2169'],
      'the panel is told',
    );
    const again = await p.asModel('memory_remember', { text: 'rivers layer is in epsg:2169' });
    assert.ok(again.result.ok && (again.result.data as { already: boolean }).already, 'kept once');
    assert.equal(p.memory.list().length, 1);
    p.close();
    a.appDb.close();
  });

  it('a rejected dialog keeps nothing; scope defaults to the project', async () => {
    const a = app();
    const p = a.project();
    const rejected = await p.asModel('memory_remember', { text: 'Use quantiles' }, 'reject');
    assert.equal(rejected.dialog!.summary, 'Remember (project): “Use quantiles”');
    assert.ok(!rejected.result.ok && rejected.result.error.code === 'rejected_by_user');
    assert.deepEqual(p.memory.list(), []);
    assert.deepEqual(p.changes, []);
    p.close();
    a.appDb.close();
  });

  it('refuses secrets, empty and over-long text before any dialog', async () => {
    const a = app();
    const p = a.project();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ text: 'the PostGIS password: hunter2' }, 'not_allowed', /secrets are never remembered/],
      [{ text: 'key sk-proj-abcdefghijklmnop1234' }, 'not_allowed', /secrets are never remembered/],
      [{ text: ' \n\t ' }, 'invalid_params', /a memory needs text/],
      [{ text: 'x'.repeat(501) }, 'invalid_params', /text/],
      [{ text: 'ok', scope: 'team' }, 'invalid_params', /scope/],
    ];
    for (const [args, code, message] of cases) {
      const { dialog, result } = await p.asModel('memory_remember', args);
      assert.equal(dialog, null, JSON.stringify(args));
      assert.ok(!result.ok && result.error.code === code && message.test(result.error.message), JSON.stringify(result));
    }
    assert.deepEqual(p.memory.list(), []);
    p.close();
    a.appDb.close();
  });

  it('recall answers the best matches with ids; list answers all; both run without a dialog', async () => {
    const a = app();
    const p = a.project();
    for (const text of ['Rivers are in EPSG:2169', 'Reports go to Anna', 'Prefer blue for rivers'])
      assert.ok((await p.asModel('memory_remember', { text })).result.ok);
    const recall = await p.asModel('memory_recall', { query: 'colour of the rivers', limit: 5 });
    assert.equal(recall.dialog, null);
    const data = recall.result.ok
      ? (recall.result.data as { memories: { id: string; text: string }[]; matched: number; kept: number })
      : null;
    assert.deepEqual(
      data!.memories.map((m) => m.text),
      ['Prefer blue for rivers', 'Rivers are in EPSG:2169'],
    );
    assert.deepEqual([data!.matched, data!.kept], [2, 3]);
    assert.ok(data!.memories.every((m) => p.memory.list().some((k) => k.id === m.id)));
    const listed = await p.asModel('memory_list', {});
    assert.equal(listed.dialog, null);
    assert.equal((listed.result.ok ? (listed.result.data as { memories: unknown[] }).memories : []).length, 3);
    p.close();
    a.appDb.close();
  });

  it('memory_remove is never offered to the model, and refused when the model names it anyway', async () => {
    const a = app();
    const p = a.project();
    await p.tools.trigger('commands.set_mode', { mode: 'auto' });
    await p.asModel('memory_remember', { text: 'Keep me' });
    const [kept] = p.memory.list();
    // Wall 1: not in any request, even with the memory skill loaded, nor in the registry's model list.
    const offered = await p.request('forget "Keep me"', true);
    assert.ok(
      offered.tools.includes('memory_remember') && offered.tools.includes('memory_recall') && offered.tools.includes('memory_list'),
    );
    assert.ok(!offered.tools.includes('memory_remove') && !offered.tools.includes('memory_edit'), offered.tools.join(', '));
    const forModel = p.tools.registry.forModel().map((t) => t.def.id);
    assert.ok(!forModel.includes('memory.remove') && !forModel.includes('memory.edit'));
    // Wall 2: named anyway (even in Auto mode), it is refused and nothing is deleted.
    for (const [name, args] of [
      ['memory_remove', { id: kept!.id }],
      ['memory_remove', { id: 'not-an-id' }],
      ['memory_edit', { id: kept!.id, text: 'changed' }],
      ['memory_edit', { id: kept!.id, text: 'token: abc' }],
    ] as const) {
      const { dialog, result } = await p.asModel(name, args);
      assert.equal(dialog, null);
      assert.ok(
        !result.ok && result.error.code === 'not_allowed' && /can only be run by the person/.test(result.error.message),
        JSON.stringify(result),
      );
    }
    assert.deepEqual(p.memory.list(), [kept]);
    const audited = p.store.audit.list({}).filter((e) => e.toolId === 'memory.remove');
    assert.deepEqual(
      audited.map((e) => [e.caller, e.decision]),
      [
        ['model', 'refused'],
        ['model', 'refused'],
      ],
    );
    p.close();
    a.appDb.close();
  });

  it('the person edits and deletes from the interface, without a dialog, audited as theirs', async () => {
    const a = app();
    const p = a.project();
    await p.tools.trigger('commands.set_mode', { mode: 'auto' });
    await p.asModel('memory_remember', { text: 'Rivers are blue', scope: 'user' });
    const [kept] = p.memory.list();
    const edited = await p.tools.trigger('memory.edit', { id: kept!.id, text: 'Rivers are dark blue\n' });
    assert.ok(edited.ok, JSON.stringify(edited));
    assert.deepEqual(
      p.memory.list().map((m) => [m.id, m.scope, m.text]),
      [[kept!.id, 'user', 'Rivers are dark blue']],
    );
    const secret = await p.tools.trigger('memory.edit', { id: kept!.id, text: 'token: abc' });
    assert.ok(!secret.ok && /secrets are never remembered/.test(secret.error.message));
    const removed = await p.tools.trigger('memory.remove', { id: kept!.id });
    assert.ok(removed.ok);
    assert.deepEqual(p.memory.list(), []);
    assert.deepEqual(p.changes.at(-1), [], 'the panel is told');
    assert.equal(p.tools.undoState().undo, null, 'no Undo step that would do nothing: memory is not the project');
    const missing = await p.tools.trigger('memory.remove', { id: kept!.id });
    assert.ok(!missing.ok && missing.error.code === 'invalid_params' && /no memory/.test(missing.error.message));
    const unknownField = await p.tools.trigger('memory.remove', { id: kept!.id, scope: 'user' });
    assert.ok(!unknownField.ok && /Unknown parameters/.test(unknownField.error.message));
    assert.deepEqual(
      p.store.audit
        .list({})
        .filter((e) => e.toolId === 'memory.remove' || e.toolId === 'memory.edit')
        .map((e) => [e.toolId, e.caller, e.outcome])
        .reverse(),
      [
        ['memory.edit', 'user', 'ok'],
        ['memory.edit', 'user', 'error'],
        ['memory.remove', 'user', 'ok'],
        ['memory.remove', 'user', 'error'],
      ],
    );
    p.close();
    a.appDb.close();
  });

  it('user memories follow the person into another project; project memories stay; ids of another project are not found', async () => {
    const a = app();
    const first = a.project('a.mapwright');
    await first.tools.trigger('commands.set_mode', { mode: 'auto' });
    await first.asModel('memory_remember', { text: 'Reports in Chinese', scope: 'user' });
    await first.asModel('memory_remember', { text: 'Rivers are in EPSG:2169', scope: 'project' });
    const ofFirst = first.memory.list().find((m) => m.scope === 'project')!;
    first.close();
    const second = a.project('b.mapwright');
    assert.deepEqual(
      second.memory.list().map((m) => m.text),
      ['Reports in Chinese'],
    );
    const foreign = await second.tools.trigger('memory.remove', { id: ofFirst.id });
    assert.ok(!foreign.ok && /no memory/.test(foreign.error.message));
    assert.equal(a.appDb.memories.get(ofFirst.id)?.text, 'Rivers are in EPSG:2169', 'still there for its project');
    second.close();
    a.appDb.close();
  });

  it('each request carries the excerpt, ranked by the latest message; none at all once deleted', async () => {
    const a = app();
    const p = a.project();
    const bare = await p.request('hello');
    assert.ok(!bare.system.includes(MEMORY_EXCERPT_HEAD));
    await p.tools.trigger('commands.set_mode', { mode: 'auto' });
    await p.asModel('memory_remember', { text: 'Prefer blue for rivers' });
    await p.asModel('memory_remember', { text: 'Reports go to Anna', scope: 'user' });
    const about = await p.request('style the rivers');
    assert.ok(about.system.endsWith(`${MEMORY_EXCERPT_HEAD}\n- Prefer blue for rivers\n- Reports go to Anna`), about.system);
    const other = await p.request('who gets the report? Anna?');
    assert.ok(other.system.endsWith(`${MEMORY_EXCERPT_HEAD}\n- Reports go to Anna\n- Prefer blue for rivers`), other.system);
    for (const m of p.memory.list()) assert.ok((await p.tools.trigger('memory.remove', { id: m.id })).ok);
    const after = await p.request('style the rivers');
    assert.ok(!after.system.includes(MEMORY_EXCERPT_HEAD));
    assert.equal(after.system.length, bare.system.length, 'an empty memory adds nothing');
    p.close();
    a.appDb.close();
  });

  it('stops keeping more at the cap and says who can make room', async () => {
    const a = app();
    const p = a.project();
    for (let i = 0; i < MAX_MEMORIES; i++) a.appDb.memories.add({ scope: 'user', project: p.store.info.path, text: `note ${i}` });
    await p.tools.trigger('commands.set_mode', { mode: 'auto' });
    const { result } = await p.asModel('memory_remember', { text: 'one more' });
    assert.ok(!result.ok && result.error.code === 'not_allowed' && /Memory panel/.test(result.error.hint ?? ''), JSON.stringify(result));
    assert.equal(p.memory.list().length, MAX_MEMORIES);
    p.close();
    a.appDb.close();
  });

  it('without the app settings file the tools fail plainly instead of pretending', async () => {
    const home = freshHome();
    const store = ProjectStore.open(join(home, 'x.mapwright'));
    const tools = createToolHost({
      store,
      worker: {} as GisWorkerClient,
      emit: () => undefined,
      privatePaths: new PrivatePaths([]),
      egress: { openFor: () => () => undefined, recent: () => [] },
      runIsLive: () => false,
      send: () => undefined,
    });
    const r = (
      await tools.dispatcher.dispatch({
        name: 'memory_list',
        rawArgs: '{}',
        caller: 'model',
        callId: 'c',
        runId: 'r',
        conversationId: store.conversationId,
        signal: new AbortController().signal,
      })
    ).result;
    assert.ok(!r.ok && /Memory is not available/.test(r.error.message), JSON.stringify(r));
    store.close();
  });
});
