import type { EventPayload } from '../../../src-shared/bridge/contract.js';
import type { ConversationSummary } from '../../../src-shared/bridge/conversationContract.js';
import type { AppState, SliceCreator } from '../storeTypes.js';
import { replaceMessages } from './chatSlice.js';

export interface ConversationsSlice {
  /** The project's conversations, newest first (main's order). */
  conversations: ConversationSummary[];
  setConversations(list: EventPayload<'conversations/changed'>): void;
  /** Another conversation became current: its messages replace the chat's. */
  openConversation(opened: EventPayload<'conversations/opened'>): void;
}

export const createConversationsSlice: SliceCreator<ConversationsSlice> = (set) => ({
  conversations: [],
  setConversations: ({ conversations, currentId }) => set({ conversations, conversationId: currentId }, false, 'conversations/changed'),
  openConversation: ({ conversationId, messages }) =>
    set((s) => ({ conversationId, ...replaceMessages(s, messages) }), false, 'conversations/opened'),
});

export const selectConversations = (s: AppState) => s.conversations;
export const selectCurrentConversationId = (s: AppState) => s.conversationId;
/** The current conversation's title, or null while it has no message (not yet written). */
export const selectCurrentTitle = (s: AppState) => s.conversations.find((c) => c.id === s.conversationId)?.title ?? null;
