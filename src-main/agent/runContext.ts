import type { Emit } from '../../src-shared/bridge/contract.js';
import type { ChatMessage } from '../../src-shared/domain/chat.js';
import type { MessageDraft } from '../store/conversationRepo.js';

/** What the steps of one run share: where to save and announce messages, and Stop. */
export interface RunContext {
  runId: string;
  conversationId: string;
  signal: AbortSignal;
  emit: Emit;
  /** Saves (insert or update) a message of this run's conversation and announces it. */
  save(draft: MessageDraft): ChatMessage;
  /** Tool-call ids already used in the conversation. */
  usedCallIds: Set<string>;
}
