import type { AppState, SliceCreator } from '../storeTypes.js';
import { appendDelta } from './chatSlice.js';

/**
 * Reasoning streamed beside an assistant turn, by message id. Live only: it is never saved,
 * so a reload shows the answers without it.
 */
export interface ReasoningSlice {
  /** Changed in place (a delta costs O(1), not a copy of every turn's reasoning); values are strings. */
  reasoningById: Record<string, string>;
  /** Appends reasoning; starts the assistant placeholder when reasoning comes before any text. */
  appendReasoning(messageId: string, delta: string): void;
}

export const createReasoningSlice: SliceCreator<ReasoningSlice> = (set) => ({
  // Made per store, never shared: it is changed in place.
  reasoningById: Object.create(null) as Record<string, string>,
  appendReasoning: (messageId, delta) =>
    set(
      (s) => {
        const chat = s.messagesById[messageId] ? {} : appendDelta(s, messageId, '', s.conversationId ?? '');
        s.reasoningById[messageId] = (s.reasoningById[messageId] ?? '') + delta;
        return chat;
      },
      false,
      'chat/appendReasoning',
    ),
});

export const selectReasoning = (id: string) => (s: AppState) => s.reasoningById[id];
