/**
 * Limits of conversations, from the environment until the settings screen stores them.
 *
 * `contextChars` is the model's context budget in characters (about 4 per token for English;
 * the default, 100,000, suits a 32k-token context with room to spare — with every skill loaded
 * the prompt and tool schemas alone take about 45,000). When the system prompt, the tool
 * schemas, the window and `replyReserveChars` would exceed it, older turns are compacted into
 * a summary.
 */
export interface ConversationSettings {
  contextChars: number;
  /** Kept free for the model's reply. */
  replyReserveChars: number;
  /** Conversations kept per project; older ones go when a new one is written. */
  maxConversations: number;
  /** The interface language, which replies follow unless the person writes in another. */
  language: string;
}

export const DEFAULT_CONVERSATION_SETTINGS: ConversationSettings = {
  contextChars: 100_000,
  replyReserveChars: 4_000,
  maxConversations: 50,
  language: 'English',
};

export function readConversationSettings(env: Record<string, string | undefined> = process.env): ConversationSettings {
  const int = (value: string | undefined, fallback: number, min: number) => {
    const n = Number(value);
    return value && Number.isInteger(n) && n >= min ? n : fallback;
  };
  const d = DEFAULT_CONVERSATION_SETTINGS;
  return {
    contextChars: int(env.MAPWRIGHT_CONTEXT_CHARS, d.contextChars, 4_000),
    replyReserveChars: d.replyReserveChars,
    maxConversations: int(env.MAPWRIGHT_MAX_CONVERSATIONS, d.maxConversations, 1),
    language: d.language,
  };
}
