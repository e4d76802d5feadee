import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

/**
 * The chat of the current conversation. A conversation can hold thousands of messages, so
 * the two containers are changed in place — an event costs O(1) amortised, never a copy of
 * the whole conversation — while every message object is immutable: a changed message is a
 * new object, so `selectMessage(id)` re-renders only that message. Subscribe to
 * `messageIdsVersion` (or a selector below), never to the identity of the containers.
 */
export interface ChatSlice {
  /** Message ids in display order (by `seq`, arrival order among equals). Changed in place. */
  messageIds: string[];
  /** Changed in place; each message in it is replaced, never mutated. */
  messagesById: Record<string, ChatMessage>;
  /** Bumped whenever `messageIds` changes (a message added or moved, the chat replaced). */
  messageIdsVersion: number;
  setMessages(messages: ChatMessage[]): void;
  /** Adds or replaces a message; main's copy always wins over streamed text. */
  upsertMessage(message: ChatMessage): void;
  /** Appends streamed text; an unknown id starts a placeholder assistant message. */
  appendDelta(messageId: string, delta: string): void;
}

type ChatContainers = Pick<ChatSlice, 'messageIds' | 'messagesById'>;
type ChatState = ChatContainers & Pick<ChatSlice, 'messageIdsVersion'>;

/** A map with no prototype: an id such as `__proto__` or `constructor` is just an id. */
function emptyById(): Record<string, ChatMessage> {
  return Object.create(null) as Record<string, ChatMessage>;
}

/**
 * Fresh containers for a whole conversation, in one pass: main sends messages in seq order,
 * so each one is an append (any order gives the same result as upserting them one by one).
 */
export function indexMessages(messages: readonly ChatMessage[]): ChatContainers {
  const chat: ChatContainers = { messageIds: [], messagesById: emptyById() };
  for (const message of messages) place(chat, message);
  return chat;
}

/** The chat fields of a state whose messages are replaced by `messages` (open, reload). */
export function replaceMessages(state: Pick<ChatSlice, 'messageIdsVersion'>, messages: readonly ChatMessage[]): ChatState {
  return { ...indexMessages(messages), messageIdsVersion: state.messageIdsVersion + 1 };
}

const seqAt = (chat: ChatContainers, index: number) => chat.messagesById[chat.messageIds[index]!]!.seq;

/**
 * Position after every message whose seq is <= `seq`: equal seqs keep arrival order. The ids
 * are always sorted by seq, so this is a binary search, and O(1) for the usual append.
 */
function insertionIndex(chat: ChatContainers, seq: number): number {
  let high = chat.messageIds.length;
  if (high === 0 || seqAt(chat, high - 1) <= seq) return high;
  let low = 0;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (seqAt(chat, mid) <= seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Where `message` (as stored now) sits in the ids: the first of its seq, then along equals. */
function indexOf(chat: ChatContainers, message: ChatMessage): number {
  const ids = chat.messageIds;
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (seqAt(chat, mid) < message.seq) low = mid + 1;
    else high = mid;
  }
  for (let i = low; i < ids.length; i += 1) if (ids[i] === message.id) return i;
  return ids.lastIndexOf(message.id);
}

/** Stores `message` in place; true when the ids changed (a new message, or a new seq). */
function place(chat: ChatContainers, message: ChatMessage): boolean {
  const previous = chat.messagesById[message.id];
  if (previous && previous.seq === message.seq) {
    chat.messagesById[message.id] = message;
    return false;
  }
  // Taken out while the map still holds its old seq, which the search relies on.
  if (previous) chat.messageIds.splice(indexOf(chat, previous), 1);
  chat.messagesById[message.id] = message;
  const at = insertionIndex(chat, message.seq);
  if (at === chat.messageIds.length) chat.messageIds.push(message.id);
  else chat.messageIds.splice(at, 0, message.id);
  return true;
}

/** Adds or replaces `message` in `state`'s containers; returns what else changed, for `set`. */
export function upsert(state: ChatState, message: ChatMessage): Partial<ChatState> {
  return place(state, message) ? { messageIdsVersion: state.messageIdsVersion + 1 } : {};
}

export function appendDelta(state: ChatState, messageId: string, delta: string, conversationId: string): Partial<ChatState> {
  const existing = state.messagesById[messageId];
  if (existing) {
    state.messagesById[messageId] = { ...existing, text: existing.text + delta };
    return {};
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
  // Made per store, never shared: they are changed in place.
  messageIds: [],
  messagesById: emptyById(),
  messageIdsVersion: 0,
  setMessages: (messages) => set((s) => replaceMessages(s, messages), false, 'chat/setMessages'),
  upsertMessage: (message) => set((s) => upsert(s, message), false, 'chat/upsertMessage'),
  appendDelta: (messageId, delta) => set((s) => appendDelta(s, messageId, delta, s.conversationId ?? ''), false, 'chat/appendDelta'),
});

export const selectMessageIdsVersion = (s: AppState) => s.messageIdsVersion;
export const selectMessageCount = (s: AppState) => s.messageIds.length;
export const selectMessage = (id: string) => (s: AppState) => s.messagesById[id];

/**
 * A selector of the ids from index `from` on (the part of the chat on screen), the same array
 * until they change: one per component (`useState(makeSelectMessageWindow)`). Costs the
 * window's length when the ids change, nothing otherwise.
 */
export function makeSelectMessageWindow(): (s: AppState, from: number) => readonly string[] {
  let ids: readonly string[] | null = null;
  let version = -1;
  let start = -1;
  let window: readonly string[] = [];
  return (s, from) => {
    if (s.messageIds !== ids || s.messageIdsVersion !== version || from !== start) {
      ids = s.messageIds;
      version = s.messageIdsVersion;
      start = from;
      window = s.messageIds.slice(from);
    }
    return window;
  };
}
