import type { ChatMessage } from '../../src-shared/domain/chat.js';

/**
 * The id of the assistant's answer to the person's latest message: the last assistant message
 * with text, provided no user message follows it. Tool cards and notices in between are
 * skipped; an assistant turn that only called tools has no text and is not an answer.
 */
export function lastAssistantAnswerId(ids: readonly string[], byId: Readonly<Record<string, ChatMessage>>): string | null {
  for (let i = ids.length - 1; i >= 0; i -= 1) {
    const message = byId[ids[i]!];
    if (!message) continue;
    if (message.role === 'user') return null;
    if (message.role === 'assistant' && message.text.trim().length > 0) return message.id;
  }
  return null;
}
