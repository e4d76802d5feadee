import { z } from 'zod';

/** Error codes a tool call can end with; the model reads them (DESIGN §3). */
export const ToolErrorCode = z.enum([
  'unknown_tool',
  'invalid_params',
  'rejected_by_user',
  'handler_error',
  'timeout',
  'cancelled',
  'loop_detected',
  'not_allowed',
]);
export type ToolErrorCode = z.infer<typeof ToolErrorCode>;

export const ToolError = z.object({
  code: ToolErrorCode,
  message: z.string(),
  retryable: z.boolean(),
  hint: z.string().optional(),
});
export type ToolError = z.infer<typeof ToolError>;

export const ToolResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: ToolError }),
]);
export type ToolResult = z.infer<typeof ToolResult>;

export function toolError(code: ToolErrorCode, message: string, retryable = false, hint?: string): ToolResult {
  return { ok: false, error: hint ? { code, message, retryable, hint } : { code, message, retryable } };
}

/**
 * Thrown by a handler (or a handle it uses) to end a call with a specific, readable error;
 * the dispatcher turns any other exception into `handler_error`.
 */
export class ToolFailure extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly retryable = false,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}
