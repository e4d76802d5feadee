import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../src-shared/domain/chat.js';
import { buildSummary, splitTurns, turnsToFold, windowOf } from './contextWindow.js';

let seq = 0;
const at = () => seq++;
const user = (text: string): ChatMessage => ({ id: `u${seq}`, conversationId: 'c', seq: at(), role: 'user', text, createdAt: 'x' });
const answer = (text: string): ChatMessage => ({ id: `a${seq}`, conversationId: 'c', seq: at(), role: 'assistant', text, createdAt: 'x' });
const tool = (name: string, summary: string, status: 'ok' | 'rejected' | 'error', code?: string): ChatMessage => ({
  id: `t${seq}`,
  conversationId: 'c',
  seq: at(),
  role: 'tool',
  text: '',
  createdAt: 'x',
  tool: {
    callId: `call${seq}`,
    toolId: null,
    name,
    title: name,
    args: {},
    summary,
    status,
    durationMs: 1,
    result:
      status === 'ok'
        ? { ok: true, data: {} }
        : { ok: false, error: { code: (code ?? 'rejected_by_user') as 'handler_error', message: 'm', retryable: false } },
  },
});

describe('context window', () => {
  it('is the whole transcript until a compaction, then the summary plus what follows its cut', () => {
    seq = 0;
    const t = [user('one'), answer('1'), user('two'), answer('2'), user('three')];
    assert.deepEqual(windowOf(t), { summary: null, messages: t });
    const summary: ChatMessage = {
      id: 's',
      conversationId: 'c',
      seq: at(),
      role: 'notice',
      text: 'S',
      level: 'info',
      compaction: { throughSeq: 1, foldedMessages: 2 },
      createdAt: 'x',
    };
    const w = windowOf([...t, summary]);
    assert.equal(w.summary, summary);
    assert.deepEqual(
      w.messages.map((m) => m.text),
      ['two', '2', 'three'],
    );
  });

  it('uses the latest of several compactions', () => {
    seq = 0;
    const t = [user('a'), answer('b'), user('c'), answer('d'), user('e')];
    const s1: ChatMessage = {
      id: 's1',
      conversationId: 'c',
      seq: at(),
      role: 'notice',
      text: 'S1',
      compaction: { throughSeq: 1, foldedMessages: 2 },
      createdAt: 'x',
    };
    const s2: ChatMessage = {
      id: 's2',
      conversationId: 'c',
      seq: at(),
      role: 'notice',
      text: 'S2',
      compaction: { throughSeq: 3, foldedMessages: 2 },
      createdAt: 'x',
    };
    const w = windowOf([...t, s1, s2]);
    assert.equal(w.summary?.text, 'S2');
    assert.deepEqual(
      w.messages.map((m) => m.text),
      ['e'],
    );
  });

  it('splits turns at the person’s messages and never folds the last turn', () => {
    seq = 0;
    const t = [user('a'), answer('b'), tool('x', 'X', 'ok'), user('c'), answer('d'), user('e')];
    const turns = splitTurns(t);
    assert.deepEqual(
      turns.map((turn) => turn.length),
      [3, 2, 1],
    );
    const measure = (ms: ChatMessage[]) => ms.length * 100;
    assert.equal(turnsToFold(turns, measure, 1000), 0, 'fits: nothing folded');
    assert.equal(turnsToFold(turns, measure, 300), 1);
    assert.equal(turnsToFold(turns, measure, 0), 2, 'the last turn stays even when it alone is too big');
  });
});

describe('compaction summary', () => {
  it('lists each folded turn: the request, every call with its outcome, the answer', () => {
    seq = 0;
    const folded = [
      [user('Load the rivers from /data/rivers.gpkg'), tool('layers_load', 'Load /data/rivers.gpkg', 'ok'), answer('Loaded 120 rivers.')],
      [user('remove nc'), tool('layers_remove', 'Remove nc', 'rejected'), answer('OK, I will not remove it.')],
      [user('buffer it'), tool('processing_run', 'buffer on rivers', 'error', 'invalid_params')],
    ];
    const text = buildSummary(null, folded, 5000);
    assert.match(text, /^Summary of earlier turns, built by Mapwright from the saved messages \(not written by a model/);
    assert.match(
      text,
      /• Person: "Load the rivers from \/data\/rivers.gpkg"\n {2}Calls: layers_load \(Load \/data\/rivers.gpkg\) → ok\n {2}Answer: "Loaded 120 rivers."/,
    );
    assert.match(text, /layers_remove \(Remove nc\) → rejected by the person/);
    assert.match(text, /processing_run \(buffer on rivers\) → invalid_params/);
  });

  it('chains onto the previous summary and is deterministic', () => {
    seq = 0;
    const first = buildSummary(null, [[user('one'), answer('1')]], 5000);
    const second = buildSummary(first, [[user('two'), answer('2')]], 5000);
    assert.equal(second.split('\n').filter((l) => l.startsWith('• ')).length, 2);
    assert.ok(second.indexOf('"one"') < second.indexOf('"two"'));
    assert.equal(buildSummary(first, [[user('two'), answer('2')]], 5000), second);
  });

  it('over its size, drops the oldest turns and counts them instead of hiding them', () => {
    seq = 0;
    const turns = Array.from({ length: 30 }, (_, i) => [user(`request number ${i} ${'x'.repeat(80)}`), answer(`answer ${i}`)]);
    const text = buildSummary(null, turns, 1500);
    assert.ok(text.length <= 1500, `${text.length}`);
    const omitted = Number(/\((\d+) older turns not shown\)/.exec(text)?.[1]);
    const shown = text.split('\n').filter((l) => l.startsWith('• ')).length;
    assert.equal(omitted + shown, 30);
    assert.match(text, /request number 29/);
    // Chaining keeps the count.
    const next = buildSummary(text, [[user('one more'), answer('ok')]], 1500);
    const omittedNext = Number(/\((\d+) older turns not shown\)/.exec(next)?.[1]);
    assert.equal(omittedNext + next.split('\n').filter((l) => l.startsWith('• ')).length, 31);
  });
});
