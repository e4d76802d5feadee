import type { ToolCallRequest } from '../../src-shared/domain/chat.js';

/**
 * What the agent loop needs from a model, whatever the endpoint. Adapters fold their wire
 * format into this one turn shape; the loop never learns which one answered (DESIGN §5).
 */
export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCallRequest[] }
  | { role: 'tool'; toolCallId: string; content: string };

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
}

export interface StreamCallbacks {
  signal: AbortSignal;
  onTextDelta(delta: string): void;
}

export interface ModelClient {
  readonly model: string;
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
