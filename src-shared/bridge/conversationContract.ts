import { z } from 'zod';
import { ChatMessage } from '../domain/chat.js';

/** One conversation of the open project, as the list shows it. */
export const ConversationSummary = z.object({
  id: z.string(),
  /** From the person's first message, or as renamed. */
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

const ConversationList = z.object({
  /** Newest first. The current conversation is missing while it has no message yet. */
  conversations: z.array(ConversationSummary),
  currentId: z.string(),
});

/**
 * Conversations of the open project (issue 6). The renderer names conversations only by the
 * ids main gave it; main refuses to switch (open, new, delete the current one) while a run
 * is live or waiting for approval, and says why in the error.
 */
export const conversationMethods = {
  'conversations/list': { params: z.object({}), result: ConversationList },
  'conversations/open': {
    params: z.object({ id: z.string().min(1) }),
    /** The messages come once, in `conversations/opened`; the answer carries only their count. */
    result: z.object({ conversationId: z.string(), messageCount: z.number().int() }),
  },
  /** Starts an empty conversation; it is written (and old ones trimmed) with its first message. */
  'conversations/new': { params: z.object({}), result: z.object({ conversationId: z.string() }) },
  'conversations/rename': {
    params: z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(120) }),
    result: z.object({ conversation: ConversationSummary }),
  },
  'conversations/delete': {
    params: z.object({ id: z.string().min(1) }),
    result: z.object({ deleted: z.boolean(), currentId: z.string() }),
  },
} satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export const conversationEvents = {
  /** The list or the current conversation changed (a first message, rename, delete, switch). */
  'conversations/changed': ConversationList,
  /** Another conversation became current: its messages replace the chat's. */
  'conversations/opened': z.object({ conversationId: z.string(), messages: z.array(ChatMessage) }),
} satisfies Record<string, z.ZodType>;
