import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { ProjectStore } from './projectStore.js';
import { titleFrom, UNTITLED } from './conversationRepo.js';
import { tempProjectStores } from './testing/tempHomes.js';

const open = tempProjectStores('mapwright-conv-');
/** updated_at has millisecond resolution: keep writes apart so "most recent" is unambiguous. */
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('ConversationRepo', () => {
  it('never writes an empty conversation', () => {
    const { store } = open();
    assert.deepEqual(store.conversations.list(), []);
    assert.equal(store.conversations.exists(store.conversationId), false);
    store.close();
  });

  it('titles a conversation from the person’s first message, or from the first one they write later', () => {
    const { store } = open();
    store.conversations.upsert('c1', { id: 'm1', role: 'user', text: '  load   /data/rivers.gpkg\nplease ' });
    assert.equal(store.conversations.get('c1')?.title, 'load /data/rivers.gpkg please');
    store.conversations.upsert('c2', { id: 'n1', role: 'notice', text: 'No model configured', level: 'error' });
    assert.equal(store.conversations.get('c2')?.title, UNTITLED);
    store.conversations.upsert('c2', { id: 'm2', role: 'user', text: 'hello' });
    assert.equal(store.conversations.get('c2')?.title, 'hello');
    assert.equal(titleFrom('word '.repeat(30)).endsWith('…'), true);
    assert.ok(titleFrom('word '.repeat(30)).length <= 61);
    store.close();
  });

  it('trims old conversations to the limit only when a new one is written', async () => {
    const { store } = open();
    store.conversations.limit = 3;
    for (const id of ['a', 'b', 'c']) {
      store.conversations.upsert(id, { id: `${id}1`, role: 'user', text: id });
      await tick();
    }
    // Writing into existing conversations never trims, whatever the limit.
    store.conversations.limit = 1;
    store.conversations.upsert('a', { id: 'a2', role: 'assistant', text: 'more' });
    await tick();
    store.conversations.upsert('b', { id: 'b2', role: 'assistant', text: 'more' });
    await tick();
    assert.deepEqual(
      store.conversations
        .list()
        .map((c) => c.id)
        .sort(),
      ['a', 'b', 'c'],
    );

    store.conversations.limit = 3;
    store.conversations.upsert('d', { id: 'd1', role: 'user', text: 'd' });
    // c was the least recently used: it goes, with its messages.
    assert.deepEqual(
      store.conversations.list().map((c) => c.id),
      ['d', 'b', 'a'],
    );
    assert.deepEqual(store.conversations.messages('c'), []);
    store.close();
  });

  it('renames and deletes', () => {
    const { store } = open();
    store.conversations.upsert('a', { id: 'a1', role: 'user', text: 'first' });
    assert.equal(store.conversations.rename('a', '  Rivers   study ')?.title, 'Rivers study');
    assert.throws(() => store.conversations.rename('a', '   '), /needs a title/);
    assert.equal(store.conversations.remove('a'), true);
    assert.equal(store.conversations.remove('a'), false);
    assert.deepEqual(store.conversations.messages('a'), []);
    store.close();
  });

  it('refuses to move a message into another conversation', () => {
    const { store } = open();
    store.conversations.upsert('a', { id: 'm', role: 'user', text: 'x' });
    assert.throws(() => store.conversations.upsert('b', { id: 'm', role: 'user', text: 'y' }), /another conversation/);
    store.close();
  });

  it('on reopen, settles cards a killed process left mid-way, as the model is told', () => {
    const { store, home } = open();
    const cardOf = (status: 'awaiting_approval' | 'running' | 'ok') => ({
      callId: randomUUID(),
      toolId: 'layers.remove',
      name: 'layers_remove',
      title: 'Remove layer',
      args: { layer: 'nc' },
      summary: 'Remove nc',
      status,
      durationMs: null,
      result: status === 'ok' ? { ok: true as const, data: {} } : null,
    });
    const cid = store.conversationId;
    store.conversations.upsert(cid, { id: 'u', role: 'user', text: 'remove nc' });
    store.conversations.upsert(cid, { id: 'waiting', role: 'tool', text: '', tool: cardOf('awaiting_approval') });
    store.conversations.upsert(cid, { id: 'running', role: 'tool', text: '', tool: cardOf('running') });
    store.conversations.upsert(cid, { id: 'done', role: 'tool', text: '', tool: cardOf('ok') });
    store.close();

    const reopened = ProjectStore.openInHome(home);
    const byId = new Map(reopened.conversations.messages(cid).map((m) => [m.id, m.tool]));
    assert.equal(byId.get('waiting')?.status, 'error');
    assert.match(JSON.stringify(byId.get('waiting')?.result), /not approved and did not run/);
    assert.equal(byId.get('running')?.status, 'error');
    assert.match(JSON.stringify(byId.get('running')?.result), /may or may not have taken effect/);
    assert.equal(byId.get('done')?.status, 'ok');
    reopened.close();
  });

  it('tells subscribers which write created the conversation', () => {
    const { store } = open();
    const events: boolean[] = [];
    const off = store.conversations.subscribe(({ created }) => events.push(created));
    store.conversations.upsert('a', { id: 'a1', role: 'user', text: 'x' });
    store.conversations.upsert('a', { id: 'a2', role: 'assistant', text: 'y' });
    off();
    store.conversations.upsert('b', { id: 'b1', role: 'user', text: 'z' });
    assert.deepEqual(events, [true, false]);
    store.close();
  });
});
