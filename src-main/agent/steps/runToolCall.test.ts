import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import { testTool } from '../../../src-shared/tools/testing/testTool.js';
import type { MessageDraft } from '../../store/conversationRepo.js';
import type { NewAuditEntry } from '../../store/auditRepo.js';
import { testDispatcher } from '../../tool-host/testing/testDispatcher.js';
import type { RunContext } from '../runContext.js';
import { CallGuards } from './callGuards.js';
import { runToolCall } from './runToolCall.js';

const base = { description: 'Returns a layer.', safety: 'read' } as const;
const announcing = testTool({
  ...base,
  id: 'test.announcing',
  title: 'Announcing',
  input: z.object({ name: z.string() }),
  summary: (a) => `add ${a.name}`,
  execute: async (a) => ({ layer: { name: a.name } }),
  notice: (data) => `Added ${(data as { layer: { name: string } }).layer.name}`,
});
const quiet = testTool({
  ...base,
  id: 'test.quiet',
  title: 'Quiet',
  input: z.object({}),
  summary: () => 'quiet',
  execute: async () => ({ load_layers: [{ path: '/out/q.gpkg', name: 'q' }] }),
});

function harness() {
  const audit: NewAuditEntry[] = [];
  const { dispatcher } = testDispatcher([announcing, quiet], { hooks: { audit: (e) => audit.push(e) } });
  const saved = new Map<string, MessageDraft>();
  const ctx: RunContext = {
    runId: 'r1',
    conversationId: 'k1',
    signal: new AbortController().signal,
    emit: () => undefined,
    usedCallIds: new Set(),
    save: (draft) => (saved.set(draft.id, draft), { ...draft, conversationId: 'k1', seq: saved.size, createdAt: '' }) as ChatMessage,
  };
  const notices = () => [...saved.values()].filter((m) => m.role === 'notice').map((m) => m.text);
  const guards = new CallGuards();
  const run = (name: string, args: string) => runToolCall(ctx, dispatcher, guards, { id: `c${saved.size}`, name, arguments: args });
  return { audit, notices, run };
}

describe('runToolCall', () => {
  it('a tool’s notice face tells the person what changed; produced layers are announced; no tool is special', async () => {
    const h = harness();
    assert.equal((await h.run('test_announcing', '{"name":"rivers"}')).ok, true);
    assert.equal((await h.run('test_quiet', '{}')).ok, true);
    assert.deepEqual(h.notices(), ['Added rivers', 'Loaded layer q (tool output)']);
  });

  it('the third identical call is loop_detected, not run, and audited as a refusal', async () => {
    const h = harness();
    for (let i = 0; i < 2; i++) assert.equal((await h.run('test_announcing', '{"name":"a"}')).ok, true);
    const third = await h.run('test_announcing', '{"name":"a"}');
    assert.ok(!third.ok && third.error.code === 'loop_detected');
    assert.deepEqual(h.notices(), ['Added a', 'Added a'], 'the refused call announces nothing');
    assert.deepEqual(
      h.audit.map((e) => [e.toolId, e.caller, e.decision, e.decidedBy, e.outcome, e.errorCode, e.runId]),
      [
        ['test.announcing', 'model', 'not_needed', 'policy', 'ok', null, 'r1'],
        ['test.announcing', 'model', 'not_needed', 'policy', 'ok', null, 'r1'],
        ['test.announcing', 'model', 'refused', 'policy', 'error', 'loop_detected', 'r1'],
      ],
    );
    assert.deepEqual(h.audit[2]!.args, { name: 'a' });
  });
});
