import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventName, EventPayload } from '../../src-shared/bridge/contract.js';
import type { RunState } from '../../src-shared/domain/chat.js';
import { tempProjectStores } from '../store/testing/tempHomes.js';
import { ConversationBusyError, ConversationService } from './conversationService.js';

const openProject = tempProjectStores('mapwright-convsvc-');

function setup() {
  const { store } = openProject();
  const events: { name: EventName; payload: unknown }[] = [];
  let run: RunState = { runId: null, status: 'idle' };
  const service = new ConversationService(
    {
      store,
      emit: <E extends EventName>(name: E, payload: EventPayload<E>) => events.push({ name, payload }),
      runState: () => run,
    },
    10,
  );
  const setRun = (status: RunState['status']) => (run = { runId: status === 'idle' ? null : 'r1', status });
  return { store, service, events, setRun };
}

describe('ConversationService', () => {
  it('lists, opens and starts conversations, announcing each switch with its messages', () => {
    const { store, service, events } = setup();
    const first = store.conversationId;
    store.conversations.upsert(first, { id: 'm1', role: 'user', text: 'first question' });
    assert.equal(events.at(-1)?.name, 'conversations/changed', 'a first message announces the new list entry');

    const { conversationId: second } = service.startNew();
    assert.notEqual(second, first);
    assert.equal(service.list().conversations.length, 1, 'the new one is not written yet');
    assert.deepEqual(service.startNew(), { conversationId: second }, 'New on an empty conversation stays on it');
    store.conversations.upsert(second, { id: 'm2', role: 'user', text: 'second question' });

    events.length = 0;
    const opened = service.open(first);
    assert.equal(opened.messageCount, 1);
    const announced = events.find((e) => e.name === 'conversations/opened')?.payload as { messages: { text: string }[] } | undefined;
    assert.deepEqual(
      announced?.messages.map((m) => m.text),
      ['first question'],
      'the messages travel in the event',
    );
    assert.equal(store.conversationId, first);
    assert.deepEqual(
      events.map((e) => e.name),
      ['conversations/opened', 'conversations/changed'],
    );
    assert.deepEqual(
      service
        .list()
        .conversations.map((c) => c.title)
        .sort(),
      ['first question', 'second question'],
    );
    assert.throws(() => service.open('missing'), /no longer exists/);
  });

  for (const status of ['running', 'awaiting_approval'] as const) {
    it(`refuses to switch while the run is ${status}, and allows it once idle`, () => {
      const { store, service, setRun } = setup();
      const first = store.conversationId;
      store.conversations.upsert(first, { id: 'm1', role: 'user', text: 'a' });
      const { conversationId: second } = service.startNew();
      store.conversations.upsert(second, { id: 'm2', role: 'user', text: 'b' });

      setRun(status);
      assert.throws(() => service.open(first), ConversationBusyError);
      assert.throws(() => service.startNew(), ConversationBusyError);
      assert.throws(() => service.remove(second), ConversationBusyError, 'the current one cannot be deleted mid-run');
      assert.equal(store.conversationId, second, 'still on the conversation of the run');
      // Reading, renaming and deleting another conversation do not switch: allowed.
      assert.equal(service.open(second).conversationId, second);
      assert.equal(service.rename(first, 'renamed').title, 'renamed');
      assert.equal(service.remove(first).deleted, true);

      setRun('idle');
      assert.notEqual(service.startNew().conversationId, second);
    });
  }

  it('the refusal says why and what to do', () => {
    assert.match(
      new ConversationBusyError('open another conversation', 'awaiting_approval').message,
      /waits for your approval: answer the dialog or press Stop/,
    );
    assert.match(new ConversationBusyError('open another conversation', 'running').message, /wait for it or press Stop/);
  });

  it('later messages refresh the list (counts, times) in one batched announcement', async () => {
    const { store, service, events } = setup();
    const id = store.conversationId;
    store.conversations.upsert(id, { id: 'm1', role: 'user', text: 'a' });
    events.length = 0;
    store.conversations.upsert(id, { id: 'm2', role: 'assistant', text: '' });
    store.conversations.upsert(id, { id: 'm2', role: 'assistant', text: 'answer' });
    store.conversations.upsert(id, { id: 'm3', role: 'notice', text: 'note', level: 'info' });
    assert.equal(events.length, 0, 'not on every write');
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(events.length, 1);
    const list = events[0]!.payload as ReturnType<typeof service.list>;
    assert.equal(list.conversations[0]!.messageCount, 3);
    service.close();
  });

  it('counts only messages the chat shows', () => {
    const { store, service } = setup();
    const id = store.conversationId;
    store.conversations.upsert(id, { id: 'm1', role: 'user', text: 'a' });
    store.conversations.upsert(id, { id: 'm2', role: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'x_y', arguments: '{}' }] });
    assert.equal(service.list().conversations[0]!.messageCount, 1);
    service.close();
  });

  it('deleting the current conversation moves to a new empty one', () => {
    const { store, service } = setup();
    const first = store.conversationId;
    store.conversations.upsert(first, { id: 'm1', role: 'user', text: 'a' });
    const result = service.remove(first);
    assert.equal(result.deleted, true);
    assert.notEqual(result.currentId, first);
    assert.equal(store.conversationId, result.currentId);
    assert.deepEqual(service.list().conversations, []);
  });
});
