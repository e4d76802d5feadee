import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

export interface ChatSlice {
  /** Message ids in display order (by `seq`, arrival order among equals). */
  messageIds: string[];
  messagesById: Record<string, ChatMessage>;
  setMessages(messages: ChatMessage[]): void;
  /** Adds or replaces a message; main's copy always wins over streamed text. */
  upsertMessage(message: ChatMessage): void;
  /** Appends streamed text; an unknown id starts a placeholder assistant message. */
  appendDelta(messageId: string, delta: string): void;
}

type ChatState = Pick<ChatSlice, 'messageIds' | 'messagesById'>;

export function indexMessages(messages: readonly ChatMessage[]): ChatState {
  let state: ChatState = { messageIds: [], messagesById: {} };
  for (const message of messages) state = upsert(state, message);
  return state;
}

/** Position after every message whose seq is <= `seq`: equal seqs keep arrival order. */
function insertionIndex(state: ChatState, seq: number): number {
  let index = state.messageIds.length;
  while (index > 0 && state.messagesById[state.messageIds[index - 1]!]!.seq > seq) index -= 1;
  return index;
}

export function upsert(state: ChatState, message: ChatMessage): ChatState {
  const previous = state.messagesById[message.id];
  const messagesById = { ...state.messagesById, [message.id]: message };
  if (previous && previous.seq === message.seq) return { messageIds: state.messageIds, messagesById };
  const others = previous ? state.messageIds.filter((id) => id !== message.id) : state.messageIds;
  const base = { messageIds: others, messagesById };
  const at = insertionIndex(base, message.seq);
  return { messageIds: [...others.slice(0, at), message.id, ...others.slice(at)], messagesById };
}

export function appendDelta(state: ChatState, messageId: string, delta: string, conversationId: string): ChatState {
  const existing = state.messagesById[messageId];
  if (existing) {
    return { messageIds: state.messageIds, messagesById: { ...state.messagesById, [messageId]: { ...existing, text: existing.text + delta } } };
  }
  const last = state.messageIds.at(-1);
  const placeholder: ChatMessage = {
    id: messageId,
    conversationId,
    // After everything known; main's upsert brings the real seq and re-sorts.
    seq: last ? state.messagesById[last]!.seq + 1 : 0,
    role: 'assistant',
    text: delta,
    createdAt: new Date().toISOString(),
  };
  return upsert(state, placeholder);
}

export const createChatSlice: SliceCreator<ChatSlice> = (set) => ({
  messageIds: [],
  messagesById: {},
  setMessages: (messages) => set(indexMessages(messages), false, 'chat/setMessages'),
  upsertMessage: (message) => set((s) => upsert(s, message), false, 'chat/upsertMessage'),
  appendDelta: (messageId, delta) =>
    set((s) => appendDelta(s, messageId, delta, s.conversationId ?? ''), false, 'chat/appendDelta'),
});

export const selectMessageIds = (s: AppState) => s.messageIds;
export const selectMessage = (id: string) => (s: AppState) => s.messagesById[id];
