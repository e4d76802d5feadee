import { z } from 'zod';
import { ToolResult } from '../tools/toolResult.js';

export const ToolCallStatus = z.enum(['pending', 'awaiting_approval', 'running', 'ok', 'error', 'rejected']);
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

/** A call the model asked for, as saved with the assistant turn that made it. */
export const ToolCallRequest = z.object({
  id: z.string(),
  /** The wire name the model used (`namespace_name`). */
  name: z.string(),
  /** Raw JSON text as the model sent it; parsed at dispatch. */
  arguments: z.string(),
});
export type ToolCallRequest = z.infer<typeof ToolCallRequest>;

export const ChatRole = z.enum(['user', 'assistant', 'tool', 'notice']);
export type ChatRole = z.infer<typeof ChatRole>;

/**
 * One entry of a conversation, as saved and as shown. `tool` entries are the cards: they
 * carry the call's status while it runs and its result once done. `notice` entries are
 * for the person only (layer loaded, model not configured) and never go to the model.
 */
export const ChatMessage = z.object({
  id: z.string(),
  conversationId: z.string(),
  seq: z.number().int(),
  role: ChatRole,
  text: z.string(),
  toolCalls: z.array(ToolCallRequest).optional(),
  tool: z
    .object({
      callId: z.string(),
      toolId: z.string().nullable(),
      name: z.string(),
      title: z.string(),
      args: z.unknown(),
      summary: z.string(),
      status: ToolCallStatus,
      durationMs: z.number().nullable(),
      result: ToolResult.nullable(),
    })
    .optional(),
  level: z.enum(['info', 'error']).optional(),
  /**
   * Marks a notice as the summary of older turns (context compaction): the model sees its
   * text instead of the messages up to `throughSeq`, which stay in the transcript.
   */
  compaction: z.object({ throughSeq: z.number().int(), foldedMessages: z.number().int() }).optional(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/**
 * Rows before and after an edit, for the approval dialog (issue #14): a few of the rows the
 * call touches, as they are and as they will be. `after` null: the row is deleted.
 */
export const ChangeSample = z.object({
  columns: z.array(z.string()),
  rows: z.array(
    z.object({
      fid: z.number().nullable(),
      before: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
      after: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
    }),
  ),
  /** How many rows the call touches in all (the sample shows the first few). */
  total: z.number().int(),
});
export type ChangeSample = z.infer<typeof ChangeSample>;

export const ApprovalRequest = z.object({
  id: z.string(),
  callId: z.string(),
  toolId: z.string(),
  title: z.string(),
  description: z.string(),
  summary: z.string(),
  safety: z.enum(['read', 'write', 'destructive']),
  /** Exactly the arguments that will run, after validation. */
  args: z.unknown(),
  /** Whether "allow this tool for this session" may be offered. */
  rememberable: z.boolean(),
  /** The model-facing name, shown beside the title. */
  wireName: z.string().optional(),
  /** Facts about the effect: which layer, how many features, CRS, where the output goes. */
  preview: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  /** Origins the call will connect to (a network call): the egress gate opens them only while it runs. */
  network: z.array(z.string()).optional(),
  /**
   * How long a yes to `network` lasts: this call only; the tool version (a plugin's declared
   * endpoint, when "Allow" is ticked); or the project (a map source's origin).
   */
  networkKept: z.enum(['call', 'tool_version', 'project']).optional(),
  /** Why this GUI action asks: a path or SQL text came from the renderer. */
  fromInterface: z.boolean().optional(),
  /** An edit's rows before/after (issue #14). */
  sample: ChangeSample.optional(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

export const RunState = z.object({
  runId: z.string().nullable(),
  status: z.enum(['idle', 'running', 'awaiting_approval']),
});
export type RunState = z.infer<typeof RunState>;
