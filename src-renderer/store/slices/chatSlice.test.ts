import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import { createAppStore } from '../appStore.js';
import { messageTexts, testMessage } from '../testing/chatFixtures.js';
import { makeSelectMessageWindow } from './chatSlice.js';

const many = (n: number, from = 0) => Array.from({ length: n }, (_, i) => testMessage(`m${from + i}`, from + i));

/** A message whose `seq` reads are counted: the work of keeping the order, observed. */
function counted(id: string, seq: number, counter: { reads: number }): ChatMessage {
  const base = testMessage(id, seq);
  return Object.defineProperty(base, 'seq', {
    enumerable: true,
    get() {
      counter.reads += 1;
      return seq;
    },
  });
}

describe('chat slice does work linear in the conversation, not quadratic', () => {
  it('an upsert or a delta copies nothing else: containers and every other message keep their identity', () => {
    const store = createAppStore();
    store.getState().setMessages(many(5000));
    const before = store.getState();
    const others = before.messageIds.map((id) => before.messagesById[id]);
    const { messageIds, messagesById } = before;

    store.getState().upsertMessage(testMessage('m10', 10, 'edited')); // same seq: replaced in place
    store.getState().upsertMessage(testMessage('new', 5000, '')); // appended
    store.getState().appendDelta('new', 'streamed');
    store.getState().appendDelta('placeholder', 'first words'); // an unknown id starts a placeholder

    const after = store.getState();
    assert.equal(after.messageIds, messageIds, 'the id list is not copied');
    assert.equal(after.messagesById, messagesById, 'the message map is not copied');
    for (const [i, message] of others.entries()) {
      if (i !== 10) assert.equal(after.messagesById[message!.id], message, `message ${i} is the same object`);
    }
    assert.notEqual(after.messagesById['m10'], others[10], 'the edited message is a new object (its subscribers re-render)');
    assert.equal(after.messagesById['m10']!.text, 'edited');
    assert.deepEqual(messageTexts(store).slice(-3), ['m4999', 'streamed', 'first words']);
    assert.equal(after.messageIdsVersion, before.messageIdsVersion + 2, 'two messages were added; edits and deltas do not move ids');
  });

  it('opening reads each seq a bounded number of times; an append costs O(1), an out-of-order insert O(log n)', () => {
    const readsToOpen = (n: number) => {
      const counter = { reads: 0 };
      createAppStore()
        .getState()
        .setMessages(Array.from({ length: n }, (_, i) => counted(`m${i}`, i, counter)));
      return counter.reads;
    };
    const small = readsToOpen(2048);
    const large = readsToOpen(8192);
    assert.ok(small <= 2 * 2048, `2,048 messages: ${small} seq reads`);
    assert.ok(large <= 4.2 * small, `4× the messages, ${(large / small).toFixed(2)}× the reads (quadratic would be 16×)`);

    const counter = { reads: 0 };
    const store = createAppStore();
    store.getState().setMessages(Array.from({ length: 8192 }, (_, i) => counted(`m${i}`, i * 2, counter)));
    counter.reads = 0;
    store.getState().upsertMessage(counted('append', 20_000, counter));
    assert.ok(counter.reads <= 2, `append: ${counter.reads} seq reads`);
    counter.reads = 0;
    store.getState().upsertMessage(counted('middle', 7, counter)); // between m3 (6) and m4 (8)
    assert.ok(counter.reads <= 2 * 14 + 2, `insert in the middle: ${counter.reads} seq reads (log2 8192 = 13)`);
    counter.reads = 0;
    store.getState().upsertMessage(counted('middle', 9, counter)); // its seq changed: moved
    assert.ok(counter.reads <= 4 * 14 + 4, `move: ${counter.reads} seq reads`);
    const ids = store.getState().messageIds;
    assert.deepEqual(ids.slice(3, 7), ['m3', 'm4', 'middle', 'm5']);
    assert.equal(ids.at(-1), 'append');
  });

  it('the window selector slices only when the ids change, and only the window', () => {
    const store = createAppStore();
    store.getState().setMessages(many(1000));
    const select = makeSelectMessageWindow();
    const first = select(store.getState(), 800);
    assert.equal(first.length, 200);
    assert.equal(select(store.getState(), 800), first, 'same state, same array');
    store.getState().appendDelta('m999', ' more');
    store.getState().setRun({ runId: 'r', status: 'running' });
    assert.equal(select(store.getState(), 800), first, 'a delta or another slice changing does not re-slice');
    store.getState().upsertMessage(testMessage('m1000', 1000));
    const second = select(store.getState(), 800);
    assert.notEqual(second, first);
    assert.deepEqual(second.slice(-2), ['m999', 'm1000']);
    store.getState().openConversation({ conversationId: 'c2', messages: many(3) });
    assert.deepEqual(select(store.getState(), 0), ['m0', 'm1', 'm2'], 'a replaced chat is seen');
  });
});

/** The store's previous algorithm (immutable copies per message), the reference for the order. */
function referenceOrder(ops: Op[]): string[] {
  let ids: string[] = [];
  const byId: Record<string, ChatMessage> = {};
  const insert = (m: ChatMessage) => {
    const previous = byId[m.id];
    byId[m.id] = m;
    if (previous && previous.seq === m.seq) return;
    if (previous) ids = ids.filter((id) => id !== m.id);
    let at = ids.length;
    while (at > 0 && byId[ids[at - 1]!]!.seq > m.seq) at -= 1;
    ids.splice(at, 0, m.id);
  };
  for (const op of ops) {
    if (op.kind === 'upsert') insert(op.message);
    else if (byId[op.id]) byId[op.id] = { ...byId[op.id]!, text: byId[op.id]!.text + op.delta };
    else insert({ ...testMessage(op.id, ids.length ? byId[ids.at(-1)!]!.seq + 1 : 0, op.delta), conversationId: '' });
  }
  return ids.map((id) => `${id}:${byId[id]!.seq}:${byId[id]!.text}`);
}

type Op = { kind: 'upsert'; message: ChatMessage } | { kind: 'delta'; id: string; delta: string };

describe('chat slice keeps the order the previous algorithm gave', () => {
  it('random upserts (out of order, equal seqs, moved seqs) and deltas', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 30; round += 1) {
      const ops: Op[] = [];
      for (let i = 0; i < 300; i += 1) {
        const id = `m${random(60)}`;
        if (random(4) === 0) ops.push({ kind: 'delta', id, delta: String(random(10)) });
        else ops.push({ kind: 'upsert', message: testMessage(id, random(40), `t${i}`) });
      }
      const store = createAppStore();
      // Half the rounds start from an opened conversation, as after project/get.
      const opening = round % 2 === 0 ? ops.splice(0, 100).flatMap((op) => (op.kind === 'upsert' ? [op.message] : [])) : [];
      store.getState().setMessages(opening);
      for (const op of ops) {
        if (op.kind === 'upsert') store.getState().upsertMessage(op.message);
        else store.getState().appendDelta(op.id, op.delta);
      }
      const s = store.getState();
      const expected = referenceOrder([...opening.map((message): Op => ({ kind: 'upsert', message })), ...ops]);
      assert.deepEqual(
        s.messageIds.map((id) => `${id}:${s.messagesById[id]!.seq}:${s.messagesById[id]!.text}`),
        expected,
        `round ${round}`,
      );
    }
  });
});
