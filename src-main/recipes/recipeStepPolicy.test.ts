import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import type { ApprovalMode } from '../../src-shared/domain/toolLayer.js';
import { testTool } from '../../src-shared/tools/testing/testTool.js';
import type { NewAuditEntry } from '../store/auditRepo.js';
import { testDispatcher } from '../tool-host/testing/testDispatcher.js';
import type { DispatchRequest } from '../tool-host/toolDispatcher.js';

const write = testTool({
  id: 'test.write',
  title: 'Write',
  description: 'A write.',
  input: z.object({ layer: z.string() }),
  safety: 'write',
  summary: (a) => `paint ${a.layer}`,
  execute: async () => 'written',
});
const userOnly = testTool({ ...write, id: 'test.user_only', caller: 'user_only' });

function setup(mode: ApprovalMode) {
  const announced: ApprovalRequest[] = [];
  const audit: NewAuditEntry[] = [];
  const s = testDispatcher([write, userOnly], {
    announce: (r) => announced.push(r),
    hooks: { policy: () => ({ mode, askForReads: false }), audit: (e) => audit.push(e) },
  });
  const step = (name: string, note?: string): DispatchRequest => ({
    name,
    rawArgs: { layer: 'B' },
    caller: 'user',
    recipeStep: { label: 'Recipe step 2 of 3', ...(note ? { note } : {}) },
    callId: 'c1',
    runId: 'recipe-1',
    conversationId: 'conv',
    signal: new AbortController().signal,
  });
  return { ...s, announced, audit, step };
}

/**
 * A recipe step is the person's replay of a file's arguments: the dispatcher judges it as an
 * automated call (it asks in Ask mode although the person clicked Run), labels the dialog
 * with its place in the recipe, and audits it as the person's.
 */
describe('a recipe step in the dispatcher', () => {
  it('asks in Ask mode, labelled "Recipe step N of M", with the note about a changed tool', async () => {
    const s = setup('ask');
    const pending = s.dispatcher.dispatch(s.step('test.write', 'test.write has changed since this recipe was made'));
    await new Promise((r) => setImmediate(r));
    assert.equal(s.announced.length, 1, 'a person-triggered step still asks');
    assert.equal(s.announced[0]!.summary, 'Recipe step 2 of 3: paint B');
    assert.match(String(s.announced[0]!.preview?.recipe), /changed since/);
    s.broker.decide(s.announced[0]!.id, 'approve', false);
    assert.deepEqual((await pending).result, { ok: true, data: 'written' });
    assert.deepEqual(
      [s.audit[0]!.caller, s.audit[0]!.decision, s.audit[0]!.decidedBy, s.audit[0]!.runId],
      ['user', 'approved', 'user', 'recipe-1'],
    );
  });

  it('a rejection comes back as rejected_by_user', async () => {
    const s = setup('ask');
    const pending = s.dispatcher.dispatch(s.step('test.write'));
    await new Promise((r) => setImmediate(r));
    s.broker.decide(s.announced[0]!.id, 'reject', false);
    const { result } = await pending;
    assert.ok(!result.ok && result.error.code === 'rejected_by_user');
  });

  it('asks even in Auto and with a session grant; Plan refuses it; a user-only tool is refused', async () => {
    const auto = setup('auto');
    const pending = auto.dispatcher.dispatch(auto.step('test.write'));
    await new Promise((r) => setImmediate(r));
    assert.equal(auto.announced.length, 1, 'every step of a recipe is approved, Auto or not');
    auto.broker.decide(auto.announced[0]!.id, 'approve', false);
    assert.deepEqual((await pending).result, { ok: true, data: 'written' });
    assert.equal(auto.audit[0]!.decision, 'approved');

    // "Allow this tool for this session", given to the model's call, does not cover a recipe step.
    const granted = setup('ask');
    const modelCall = granted.dispatcher.dispatch({ ...granted.step('test.write'), caller: 'model', recipeStep: undefined });
    await new Promise((r) => setImmediate(r));
    granted.broker.decide(granted.announced[0]!.id, 'approve', true);
    await modelCall;
    const again = granted.dispatcher.dispatch({ ...granted.step('test.write'), caller: 'model', recipeStep: undefined });
    assert.deepEqual((await again).result, { ok: true, data: 'written' }, 'the grant holds for the model');
    const step = granted.dispatcher.dispatch(granted.step('test.write'));
    await new Promise((r) => setImmediate(r));
    assert.equal(granted.announced.length, 2, 'but the recipe step asks');
    granted.broker.decide(granted.announced[1]!.id, 'approve', false);
    await step;
    const plan = setup('plan');
    const refused = (await plan.dispatcher.dispatch(plan.step('test.write'))).result;
    assert.ok(!refused.ok && /Plan mode/.test(refused.error.message));
    const ask = setup('ask');
    const userOnlyResult = (await ask.dispatcher.dispatch(ask.step('test.user_only'))).result;
    assert.ok(!userOnlyResult.ok && /only be run by the person/.test(userOnlyResult.error.message));
  });
});
