import type { z } from 'zod';
import { AuditEntryView } from '../../src-shared/domain/toolLayer.js';
import type { Db } from './openProjectDb.js';

/** One row of the audit log; the schema is the bridge's, so the panel reads what is stored. */
export const AuditEntry = AuditEntryView;
export type AuditEntry = z.infer<typeof AuditEntry>;
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'>;

export interface AuditFilter {
  toolId?: string;
  caller?: 'user' | 'model' | 'client';
  outcome?: 'ok' | 'error';
  /** One conversation's calls (issue 17: its recipe). */
  conversationId?: string;
  limit?: number;
}

/** The audit log: one row per call, whoever made it, whatever happened (DESIGN §3). */
export class AuditRepo {
  constructor(private readonly db: Db) {}

  add(entry: NewAuditEntry): void {
    this.db
      .prepare(
        `INSERT INTO audit (at, conversation_id, run_id, caller, tool_id, tool_version, definition_hash, args, decision, decided_by, outcome, error_code, duration_ms, client)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        new Date().toISOString(),
        entry.conversationId,
        entry.runId,
        entry.caller,
        entry.toolId,
        entry.toolVersion,
        entry.definitionHash,
        JSON.stringify(entry.args ?? null),
        entry.decision,
        entry.decidedBy,
        entry.outcome,
        entry.errorCode,
        entry.durationMs,
        entry.client ?? null,
      );
  }

  /** Newest first. */
  list(filter: AuditFilter = {}): AuditEntry[] {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      where.push(clause);
      params.push(value);
    };
    if (filter.toolId) add('tool_id = ?', filter.toolId);
    if (filter.caller) add('caller = ?', filter.caller);
    if (filter.outcome) add('outcome = ?', filter.outcome);
    if (filter.conversationId) add('conversation_id = ?', filter.conversationId);
    const sql = `SELECT * FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, filter.limit ?? 200) as Record<string, unknown>[];
    return rows.map((r) =>
      AuditEntry.parse({
        id: r.id,
        at: r.at,
        conversationId: r.conversation_id,
        runId: r.run_id,
        caller: r.caller,
        toolId: r.tool_id,
        toolVersion: r.tool_version,
        definitionHash: r.definition_hash,
        args: JSON.parse(String(r.args)),
        decision: r.decision,
        decidedBy: r.decided_by,
        outcome: r.outcome,
        errorCode: r.error_code,
        durationMs: r.duration_ms,
        client: (r.client as string | null | undefined) ?? null,
      }),
    );
  }
}
