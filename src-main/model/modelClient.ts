import type { ToolCallRequest } from '../../src-shared/domain/chat.js';

/**
 * What the agent loop needs from a model, whatever the endpoint. Adapters fold their wire
 * format into this one turn shape; the loop never learns which one answered (DESIGN §5).
 */
export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | AssistantModelMessage
  | { role: 'tool'; toolCallId: string; content: string };

export interface AssistantModelMessage {
  role: 'assistant';
  content: string;
  toolCalls?: ToolCallRequest[];
  /**
   * The saved message this came from, so the run can attach what it kept in memory only
   * (reasoning is never saved). Adapters ignore it.
   */
  messageId?: string;
  /** Anthropic signed thinking blocks of this turn, replayed verbatim and first. Same run only. */
  thinking?: ThinkingBlock[];
  /** Reasoning text of this turn, for the endpoints that want it back on tool-call turns. Same run only. */
  reasoning?: string;
}

/**
 * A reasoning block as Anthropic sent it. Opaque to us: the signature (or the redacted
 * data) must go back byte for byte or the API rejects the request.
 */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export interface ModelTool {
  /** Wire name, `namespace_name`. */
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface TurnRequest {
  messages: ModelMessage[];
  tools: ModelTool[];
}

export interface ModelTurn {
  text: string;
  toolCalls: ToolCallRequest[];
  stopReason: string | null;
  usage: { inputTokens: number; outputTokens: number } | null;
  /** Reasoning shown live (`<think>`, `reasoning_content`, thinking deltas); never saved. */
  reasoning?: string;
  /** Anthropic thinking blocks of this turn, for replay in the same run. */
  thinking?: ThinkingBlock[];
}

export interface StreamCallbacks {
  signal: AbortSignal;
  onTextDelta(delta: string): void;
  /** Reasoning as it grows, for the live block in the chat. Optional: not every caller shows it. */
  onReasoningDelta?(delta: string): void;
}

export interface ModelClient {
  readonly model: string;
  /**
   * Who answers: endpoint and model (and thinking setting). Reasoning kept for replay is
   * only attached to requests of the same identity; a changed model drops it.
   */
  readonly identity?: string;
  streamTurn(request: TurnRequest, callbacks: StreamCallbacks): Promise<ModelTurn>;
}

/**
 * A failure to get a turn, with what the person should read. `status` is the HTTP status
 * when there was one; `aborted` when Stop ended it.
 */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly aborted = false,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/**
 * An HTTP answer that was not a turn. Keeps what the fallback and retry rules read: the raw
 * body (to tell a refusal from an outage by its marker) and the server's Retry-After.
 * The body never reaches a log or the person as is; `message` is the readable part.
 */
export class HttpModelError extends ModelError {
  constructor(
    message: string,
    status: number,
    readonly bodyText: string,
    /** From `Retry-After` / `retry-after-ms`, or null. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message, status);
    this.name = 'HttpModelError';
  }
}
