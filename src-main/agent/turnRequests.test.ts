import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../src-shared/domain/chat.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { builtInTools } from '../../tools/index.js';
import { createLoadSkillTool, LOAD_SKILL_ID } from '../../tools/skills/loadSkill.js';
import { windowOf } from '../conversations/contextWindow.js';
import { DEFAULT_CONVERSATION_SETTINGS } from '../conversations/conversationSettings.js';
import type { TurnRequest } from '../model/modelClient.js';
import { SkillCatalogue } from '../skills/skillCatalogue.js';
import type { MessageDraft } from '../store/conversationRepo.js';
import { ProjectStore } from '../store/projectStore.js';
import { tempProjectStores } from '../store/testing/tempHomes.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { TurnRequests } from './turnRequests.js';

const openProject = tempProjectStores('mapwright-turns-');

function setup() {
  const { home, store } = openProject();
  const catalogue = new SkillCatalogue([{ dir: join(import.meta.dirname, '..', '..', 'skills'), origin: 'built-in' }]);
  const registry = new ToolRegistry([...builtInTools, createLoadSkillTool(catalogue) as unknown as ToolDefinition]);
  const settings = { ...DEFAULT_CONVERSATION_SETTINGS };
  const turns = new TurnRequests({ store, registry, skills: catalogue, settings });
  const saved: ChatMessage[] = [];
  const run = {
    save: (draft: MessageDraft) => {
      const m = store.conversations.upsert(store.conversationId, draft);
      saved.push(m);
      return m;
    },
  };
  const say = (role: 'user' | 'assistant', text: string) => run.save({ id: randomUUID(), role, text });
  /** Leaves `chars` for the conversation beyond an empty conversation's request (prompt and tools). */
  const budgetFor = async (chars: number) => {
    const base = size(await turns.startRun(run).next());
    settings.contextChars = base + settings.replyReserveChars + chars;
  };
  return { home, store, turns, run, saved, say, settings, budgetFor };
}

const toolNames = (r: TurnRequest) => r.tools.map((t) => t.name);
const size = (r: TurnRequest) => JSON.stringify(r.messages).length + JSON.stringify(r.tools).length;

function loadSkillCard(skill: string, body: string): MessageDraft {
  return {
    id: randomUUID(),
    role: 'tool',
    text: '',
    tool: {
      callId: randomUUID(),
      toolId: LOAD_SKILL_ID,
      name: 'skills_load_skill',
      title: 'Load skill',
      args: { name: skill },
      summary: `Load skill ${skill}`,
      status: 'ok',
      durationMs: 1,
      result: { ok: true, data: { skill, instructions: body, tools_added: [] } },
    },
  };
}

describe('turn requests', () => {
  it('a run offers a loaded skill’s tools from its next request on; the next run starts again from inspect', async () => {
    const { turns, run, say, store } = setup();
    say('user', 'load /data/rivers.gpkg');
    const first = turns.startRun(run);
    const r1 = await first.next();
    assert.ok(toolNames(r1).includes('skills_load_skill'));
    assert.ok(toolNames(r1).includes('inspect_list_layers'));
    assert.ok(!toolNames(r1).includes('layers_load'));
    assert.match(r1.messages[0]!.content as string, /Skill inspect \(loaded\):/);

    const callId = randomUUID();
    run.save({
      id: randomUUID(),
      role: 'assistant',
      text: '',
      toolCalls: [{ id: callId, name: 'skills_load_skill', arguments: '{"name":"layers"}' }],
    });
    run.save({ ...loadSkillCard('layers', 'Layer rules.'), tool: { ...loadSkillCard('layers', 'Layer rules.').tool!, callId } });
    const r2 = await first.next();
    assert.ok(toolNames(r2).includes('layers_load'), 'the layers tools are offered after load_skill');
    assert.equal(r2.messages.at(-1)?.role, 'tool', 'the skill body reaches the model as the tool result');

    say('assistant', 'Loaded.');
    say('user', 'and now?');
    const r3 = await turns.startRun(run).next();
    assert.ok(!toolNames(r3).includes('layers_load'), 'a new run starts with inspect only');
    store.close();
  });

  it('the outcome of an approval is in the conversation: the next turn, and a restart, read it', async () => {
    const { turns, run, say, store, home } = setup();
    say('user', 'remove nc');
    const callId = 'call_remove_1';
    run.save({
      id: randomUUID(),
      role: 'assistant',
      text: '',
      toolCalls: [{ id: callId, name: 'layers_remove', arguments: '{"layer":"nc"}' }],
    });
    run.save({
      id: randomUUID(),
      role: 'tool',
      text: '',
      tool: {
        callId,
        toolId: 'layers.remove',
        name: 'layers_remove',
        title: 'Remove layer',
        args: { layer: 'nc' },
        summary: 'Remove nc',
        status: 'rejected',
        durationMs: null,
        result: { ok: false, error: { code: 'rejected_by_user', message: 'The person rejected this call.', retryable: false } },
      },
    });
    const result = (r: TurnRequest) => r.messages.find((m) => m.role === 'tool' && m.toolCallId === callId)?.content ?? '';
    assert.match(result(await turns.startRun(run).next()), /"code":"rejected_by_user"/);
    store.close();
    const reopened = ProjectStore.openInHome(home);
    const catalogue = new SkillCatalogue([{ dir: join(import.meta.dirname, '..', '..', 'skills'), origin: 'built-in' }]);
    const registry = new ToolRegistry([...builtInTools, createLoadSkillTool(catalogue) as unknown as ToolDefinition]);
    const again = new TurnRequests({ store: reopened, registry, skills: catalogue, settings: DEFAULT_CONVERSATION_SETTINGS });
    const saver = { save: (d: MessageDraft) => reopened.conversations.upsert(reopened.conversationId, d) };
    assert.match(result(await again.startRun(saver).next()), /"code":"rejected_by_user"/);
    reopened.close();
  });

  it('the system prompt follows the language chosen in Settings, asked at each request', async () => {
    const { store, run, say } = setup();
    let language = 'en';
    const catalogue = new SkillCatalogue([{ dir: join(import.meta.dirname, '..', '..', 'skills'), origin: 'built-in' }]);
    const registry = new ToolRegistry([...builtInTools, createLoadSkillTool(catalogue) as unknown as ToolDefinition]);
    const turns = new TurnRequests({
      store,
      registry,
      skills: catalogue,
      settings: DEFAULT_CONVERSATION_SETTINGS,
      uiLanguage: () => language,
    });
    say('user', 'hello');
    const system = async () => String((await turns.startRun(run).next()).messages[0]?.content);
    assert.match(await system(), /reply in English, the interface language/);
    language = 'zh-CN';
    const zh = await system();
    assert.match(zh, /reply in Simplified Chinese/);
    assert.match(zh, /Keep tool arguments, field names and paths as they are/);
    store.close();
  });

  it('does not compact while everything fits', async () => {
    const { turns, run, say, saved, store } = setup();
    for (let i = 0; i < 5; i++) {
      say('user', `question ${i}`);
      say('assistant', `answer ${i}`);
    }
    say('user', 'last');
    await turns.startRun(run).next();
    assert.equal(saved.filter((m) => m.compaction).length, 0);
    store.close();
  });

  it('compacts older turns into a marked summary kept in the transcript when the window would overflow', async () => {
    const { turns, run, say, saved, store, settings, budgetFor } = setup();
    await budgetFor(12_000);
    const long = (i: number) => `answer ${i}: ${'lorem ipsum '.repeat(60)}`;
    for (let i = 0; i < 20; i++) {
      say('user', `question ${i}`);
      say('assistant', long(i));
    }
    say('user', 'the latest question');
    const before = store.conversations.messages(store.conversationId).length;

    const request = await turns.startRun(run).next();
    const summaries = saved.filter((m) => m.compaction);
    assert.equal(summaries.length, 1, 'one summary message');
    const summary = summaries[0]!;
    assert.equal(summary.role, 'notice', 'shown to the person, marked as a summary');
    assert.match(summary.text, /^Summary of earlier turns, built by Mapwright/);
    // Each folded turn is either in the summary or counted as not shown: none silently lost.
    const foldedTurns = store.conversations
      .messages(store.conversationId)
      .filter((m) => m.role === 'user' && m.seq <= summary.compaction!.throughSeq).length;
    const shown = summary.text.split('\n').filter((l) => l.startsWith('• Person: ')).length;
    const omitted = Number(/\((\d+) older turns? not shown\)/.exec(summary.text)?.[1] ?? 0);
    assert.ok(foldedTurns > 0);
    assert.equal(shown + omitted, foldedTurns);

    const transcript = store.conversations.messages(store.conversationId);
    assert.equal(transcript.length, before + 1, 'nothing removed from the transcript: one message added');
    assert.ok(size(request) <= settings.contextChars - settings.replyReserveChars, `request of ${size(request)} fits`);
    assert.match(request.messages[0]!.content as string, /Earlier in this conversation \(summarised\):\nSummary of earlier turns/);
    assert.equal(request.messages[1]?.role, 'user', 'the window starts at a turn');
    assert.equal(request.messages.at(-1)?.content, 'the latest question');
    assert.ok(!request.messages.some((m) => m.content === 'question 0'), 'folded turns are not sent in full');
    store.close();
  });

  it('keeps window and transcript consistent through many turns, compactions and a reopen', async () => {
    const { turns, run, say, store, home, budgetFor } = setup();
    await budgetFor(8_000);
    for (let i = 0; i < 60; i++) {
      say('user', `q${i} ${'word '.repeat(20 + (i % 7) * 15)}`);
      const r = turns.startRun(run);
      const request = await r.next();
      const transcript = store.conversations.messages(store.conversationId);
      const { summary, messages } = windowOf(transcript);
      // The window is exactly the transcript after the summary's cut (minus summary notices).
      const cut = summary?.compaction?.throughSeq ?? -1;
      assert.deepEqual(
        messages.map((m) => m.id),
        transcript.filter((m) => m.seq > cut && !m.compaction).map((m) => m.id),
      );
      // Every message outside the window is covered by a summary; none was dropped.
      for (const m of transcript) assert.ok(m.seq > cut || m.compaction || summary, `message ${m.seq} is covered`);
      assert.equal(request.messages[1]?.role, 'user');
      say('assistant', `a${i} ${'text '.repeat(30)}`);
    }
    const summaries = store.conversations.messages(store.conversationId).filter((m) => m.compaction);
    assert.ok(summaries.length >= 2, `several compactions happened (${summaries.length})`);
    const count = store.conversations.messages(store.conversationId).length;
    assert.equal(count, 120 + summaries.length, 'every message and every summary kept');
    const cid = store.conversationId;
    store.close();

    const reopened = ProjectStore.openInHome(home);
    assert.equal(reopened.conversations.messages(cid).length, count);
    assert.deepEqual(windowOf(reopened.conversations.messages(cid)).summary?.id, summaries.at(-1)!.id);
    reopened.close();
  });
});
