import { z } from 'zod';

/** Ask: writes ask. Auto: writes run, destructive still asks. Plan: only read tools are offered. */
export const ApprovalMode = z.enum(['ask', 'auto', 'plan']);
export type ApprovalMode = z.infer<typeof ApprovalMode>;

export const PolicyState = z.object({
  mode: ApprovalMode,
  /** When true, read tools ask too. */
  askForReads: z.boolean(),
  /** Tool ids allowed for this session. */
  grants: z.array(z.string()),
});
export type PolicyState = z.infer<typeof PolicyState>;

export const UndoState = z.object({
  /** What "Undo last change" would undo, or null. */
  undo: z.object({ summary: z.string(), toolId: z.string() }).nullable(),
  /** How many changes "Revert this turn" would undo, or null. */
  revertTurn: z.object({ changes: z.number().int() }).nullable(),
});
export type UndoState = z.infer<typeof UndoState>;

export const AuditEntryView = z.object({
  id: z.number().int(),
  at: z.string(),
  conversationId: z.string().nullable(),
  runId: z.string().nullable(),
  caller: z.enum(['user', 'model', 'client']),
  toolId: z.string(),
  toolVersion: z.string().nullable(),
  definitionHash: z.string().nullable(),
  args: z.unknown(),
  /** How the call got its go-ahead: run at once (read), asked and approved, a session grant, auto mode, refused… */
  decision: z.enum(['not_needed', 'approved', 'rejected', 'granted', 'auto', 'refused', 'user_action']),
  decidedBy: z.enum(['user', 'policy', 'system']),
  outcome: z.enum(['ok', 'error']),
  errorCode: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** The outside MCP client of a `client` call (`<name> <version>` from its handshake); null otherwise. */
  client: z.string().nullable().optional(),
});
export type AuditEntryView = z.infer<typeof AuditEntryView>;
