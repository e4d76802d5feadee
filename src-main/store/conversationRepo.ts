import { ChatMessage } from '../../src-shared/domain/chat.js';
import type { ToolResult } from '../../src-shared/tools/toolResult.js';
import type { Db } from './openProjectDb.js';

export type MessageDraft = Omit<ChatMessage, 'seq' | 'conversationId' | 'createdAt'> & { createdAt?: string };

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
}

/** Told after every saved message; `created` when that message wrote the conversation's row. */
export type ConversationWriteListener = (event: { conversationId: string; created: boolean; message: ChatMessage }) => void;

/** The title of a conversation whose first message is not the person's. */
export const UNTITLED = 'New conversation';
const TITLE_MAX = 60;

/**
 * Conversations and their messages: the full transcript, the one thing saved. A conversation
 * row is written together with its first message, so an empty conversation never reaches
 * the file; writing a new row is also the only moment old conversations are trimmed to
 * `limit`. Each message is saved the moment it is shown (and again as it changes: a tool
 * card's status, a finished reply). The model's window is derived from this transcript
 * (conversations/contextWindow.ts), so `upsert` is the one `add` of both views.
 */
export class ConversationRepo {
  /** At most this many conversations are kept; applied when a new one is written. */
  limit = 50;
  private readonly listeners = new Set<ConversationWriteListener>();

  constructor(private readonly db: Db) {}

  /** The most recently updated conversation, if any. */
  latestId(): string | null {
    const row = this.db.prepare('SELECT id FROM conversations ORDER BY updated_at DESC, rowid DESC LIMIT 1').get() as
      { id: string } | undefined;
    return row?.id ?? null;
  }

  exists(conversationId: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM conversations WHERE id = ?').get(conversationId);
  }

  /** Newest first; `messageCount` counts what the chat shows (not the empty turns that only called tools). */
  list(): ConversationSummary[] {
    return this.db
      .prepare(
        `SELECT c.id, c.title, c.created_at AS createdAt, c.updated_at AS updatedAt,
                (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id
                   AND NOT (m.role = 'assistant' AND json_extract(m.body, '$.text') = '')) AS messageCount
         FROM conversations c ORDER BY c.updated_at DESC, c.rowid DESC`,
      )
      .all() as ConversationSummary[];
  }

  get(conversationId: string): ConversationSummary | undefined {
    return this.list().find((c) => c.id === conversationId);
  }

  messages(conversationId: string): ChatMessage[] {
    const rows = this.db.prepare('SELECT body FROM messages WHERE conversation_id = ? ORDER BY seq').all(conversationId) as {
      body: string;
    }[];
    return rows.map((r) => ChatMessage.parse(JSON.parse(r.body)));
  }

  /** How many messages a conversation holds (without reading them). */
  count(conversationId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM messages WHERE conversation_id = ?').get(conversationId) as { n: number }).n;
  }

  /** Inserts a new message or replaces the one with the same id, keeping its place. */
  upsert(conversationId: string, draft: MessageDraft): ChatMessage {
    let created = false;
    const message = this.db.transaction((): ChatMessage => {
      const now = new Date().toISOString();
      const existing = this.db.prepare('SELECT seq, created_at, conversation_id FROM messages WHERE id = ?').get(draft.id) as
        { seq: number; created_at: string; conversation_id: string } | undefined;
      if (existing && existing.conversation_id !== conversationId) {
        throw new Error(`Message ${draft.id} belongs to another conversation`);
      }
      if (!this.exists(conversationId)) {
        created = true;
        const title = draft.role === 'user' ? titleFrom(draft.text) : UNTITLED;
        this.db
          .prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)')
          .run(conversationId, title, now, now);
        this.trim(conversationId);
      } else if (!existing && draft.role === 'user') {
        // A conversation opened by a notice gets its title from the person's first message.
        this.db
          .prepare('UPDATE conversations SET title = ? WHERE id = ? AND title = ?')
          .run(titleFrom(draft.text), conversationId, UNTITLED);
      }
      const seq =
        existing?.seq ??
        (
          this.db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 AS s FROM messages WHERE conversation_id = ?').get(conversationId) as {
            s: number;
          }
        ).s;
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
    for (const listener of this.listeners) listener({ conversationId, created, message });
    return message;
  }

  rename(conversationId: string, title: string): ConversationSummary | undefined {
    const clean = title.replace(/\s+/g, ' ').trim().slice(0, 120);
    if (!clean) throw new Error('A conversation needs a title');
    this.db.prepare('UPDATE conversations SET title = ? WHERE id = ?').run(clean, conversationId);
    return this.get(conversationId);
  }

  /** Deletes a conversation and its messages; false when there was none. */
  remove(conversationId: string): boolean {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM messages WHERE conversation_id = ?').run(conversationId);
      this.db.prepare('DELETE FROM plugin_pins WHERE conversation_id = ?').run(conversationId);
      return this.db.prepare('DELETE FROM conversations WHERE id = ?').run(conversationId).changes > 0;
    })();
  }

  /**
   * Cards left mid-way by a killed process (pending, awaiting approval, running) get their
   * real outcome written: nothing can still be running when the project opens. Returns how
   * many were settled.
   */
  settleInterrupted(): number {
    const rows = this.db.prepare("SELECT id, body FROM messages WHERE role = 'tool'").all() as { id: string; body: string }[];
    const update = this.db.prepare('UPDATE messages SET body = ? WHERE id = ?');
    let settled = 0;
    this.db.transaction(() => {
      for (const row of rows) {
        const message = ChatMessage.parse(JSON.parse(row.body));
        const card = message.tool;
        if (!card || !['pending', 'awaiting_approval', 'running'].includes(card.status)) continue;
        const result: ToolResult = {
          ok: false,
          error: {
            code: 'cancelled',
            message:
              card.status === 'running'
                ? 'The app closed while this call was running; it may or may not have taken effect. Check the project before retrying.'
                : 'The app closed before this call ran; it was not approved and did not run.',
            retryable: false,
          },
        };
        update.run(JSON.stringify({ ...message, tool: { ...card, status: 'error', result } }), row.id);
        settled += 1;
      }
    })();
    return settled;
  }

  subscribe(listener: ConversationWriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps the `limit` most recent conversations, counting `keepId` (the one being created). */
  private trim(keepId: string): void {
    const keep = Math.max(1, this.limit);
    this.db
      .prepare(
        `DELETE FROM conversations WHERE id IN (
           SELECT id FROM conversations WHERE id != ? ORDER BY updated_at DESC, rowid DESC LIMIT -1 OFFSET ?)`,
      )
      .run(keepId, keep - 1);
  }
}

/** The person's first message on one line, cut at a word near 60 characters. */
export function titleFrom(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= TITLE_MAX) return flat || UNTITLED;
  const cut = flat.slice(0, TITLE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_MAX / 2 ? cut.slice(0, space) : cut}…`;
}
