import { ChatMessage } from '../../src-shared/domain/chat.js';
import type { Db } from './openProjectDb.js';

export type MessageDraft = Omit<ChatMessage, 'seq' | 'conversationId' | 'createdAt'> & { createdAt?: string };

/**
 * Conversations and their messages. A conversation row is written together with its first
 * message, so an empty conversation never reaches the file. Each message is saved the
 * moment it is shown (and again as it changes: a tool card's status, a finished reply).
 */
export class ConversationRepo {
  constructor(private readonly db: Db) {}

  /** The most recently updated conversation, if any. */
  latestId(): string | null {
    const row = this.db.prepare('SELECT id FROM conversations ORDER BY updated_at DESC, rowid DESC LIMIT 1').get() as
      | { id: string }
      | undefined;
    return row?.id ?? null;
  }

  messages(conversationId: string): ChatMessage[] {
    const rows = this.db
      .prepare('SELECT body FROM messages WHERE conversation_id = ? ORDER BY seq')
      .all(conversationId) as { body: string }[];
    return rows.map((r) => ChatMessage.parse(JSON.parse(r.body)));
  }

  /** Inserts a new message or replaces the one with the same id, keeping its place. */
  upsert(conversationId: string, draft: MessageDraft): ChatMessage {
    return this.db.transaction((): ChatMessage => {
      const now = new Date().toISOString();
      const existing = this.db.prepare('SELECT seq, created_at FROM messages WHERE id = ?').get(draft.id) as
        | { seq: number; created_at: string }
        | undefined;
      if (!this.db.prepare('SELECT 1 FROM conversations WHERE id = ?').get(conversationId)) {
        const title = draft.role === 'user' ? draft.text.slice(0, 80) : 'Conversation';
        this.db
          .prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)')
          .run(conversationId, title, now, now);
      }
      const seq =
        existing?.seq ??
        (this.db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 AS s FROM messages WHERE conversation_id = ?').get(conversationId) as {
          s: number;
        }).s;
      const message = ChatMessage.parse({
        ...draft,
        conversationId,
        seq,
        createdAt: existing?.created_at ?? draft.createdAt ?? now,
      });
      this.db
        .prepare(
          `INSERT INTO messages (id, conversation_id, seq, role, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET body = excluded.body`,
        )
        .run(message.id, conversationId, seq, message.role, JSON.stringify(message), message.createdAt);
      this.db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?').run(now, conversationId);
      return message;
    })();
  }
}
