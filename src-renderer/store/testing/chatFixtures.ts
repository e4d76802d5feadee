import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import type { AppStore } from '../appStore.js';

/** For tests: a message of conversation `c1`, its text its id unless given, from the assistant unless said. */
export const testMessage = (id: string, seq: number, text = id, role: ChatMessage['role'] = 'assistant'): ChatMessage => ({
  id,
  conversationId: 'c1',
  seq,
  role,
  text,
  createdAt: '2025-01-01T00:00:00Z',
});

/** For tests: the chat as the person sees it, the texts in display order. */
export const messageTexts = (store: AppStore): string[] => {
  const s = store.getState();
  return s.messageIds.map((id) => s.messagesById[id]!.text);
};
