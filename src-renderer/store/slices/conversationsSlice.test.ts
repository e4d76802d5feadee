import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import { createAppStore } from '../appStore.js';
import { selectCurrentTitle } from './conversationsSlice.js';

const msg = (id: string, conversationId: string, text: string): ChatMessage => ({
  id,
  conversationId,
  seq: 0,
  role: 'user',
  text,
  createdAt: 'x',
});
const summary = (id: string, title: string) => ({ id, title, createdAt: 'x', updatedAt: 'x', messageCount: 1 });

describe('conversations slice', () => {
  it('an opened conversation replaces the chat and becomes current', () => {
    const store = createAppStore();
    store.getState().setMessages([msg('a1', 'A', 'from A')]);
    store.getState().setConversations({ conversations: [summary('A', 'First'), summary('B', 'Second')], currentId: 'A' });
    assert.equal(selectCurrentTitle(store.getState()), 'First');
    store.getState().openConversation({ conversationId: 'B', messages: [msg('b1', 'B', 'from B')] });
    assert.equal(store.getState().conversationId, 'B');
    assert.deepEqual(store.getState().messageIds, ['b1']);
    assert.equal(selectCurrentTitle(store.getState()), 'Second');
  });

  it('a new conversation has no title until its first message is written', () => {
    const store = createAppStore();
    store.getState().setConversations({ conversations: [summary('A', 'First')], currentId: 'fresh' });
    assert.equal(selectCurrentTitle(store.getState()), null);
  });
});
