import type { AppState, SliceCreator } from '../storeTypes.js';
import { appendDelta } from './chatSlice.js';

/**
 * Reasoning streamed beside an assistant turn, by message id. Live only: it is never saved,
 * so a reload shows the answers without it.
 */
export interface ReasoningSlice {
  reasoningById: Record<string, string>;
  /** Appends reasoning; starts the assistant placeholder when reasoning comes before any text. */
  appendReasoning(messageId: string, delta: string): void;
}

export const createReasoningSlice: SliceCreator<ReasoningSlice> = (set) => ({
  reasoningById: {},
  appendReasoning: (messageId, delta) =>
    set(
      (s) => ({
        ...(s.messagesById[messageId] ? {} : appendDelta(s, messageId, '', s.conversationId ?? '')),
        reasoningById: { ...s.reasoningById, [messageId]: (s.reasoningById[messageId] ?? '') + delta },
      }),
      false,
      'chat/appendReasoning',
    ),
});

export const selectReasoning = (id: string) => (s: AppState) => s.reasoningById[id];
