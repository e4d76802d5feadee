import type { ModelTurn, TurnRequest } from './modelClient.js';

/**
 * One wire format over HTTP, one request per call: no fallbacks, no retries. The adaptive
 * client (adaptiveModelClient.ts) decides what to send and what to do with a failure; a
 * transport only says what happened, as a turn or a ModelError (HttpModelError for status).
 */
export interface WireTransport {
  readonly wire: 'openai' | 'anthropic';
  /** The base URL as configured (for the endpoint hash and messages). */
  readonly baseUrl: string;
  readonly model: string;
  send(request: TurnRequest, attempt: WireAttempt, sink: WireSink, signal: AbortSignal): Promise<WireResult>;
  /** Model ids the endpoint lists, for the settings panel. */
  listModels(signal: AbortSignal): Promise<string[]>;
}

export interface WireAttempt {
  stream: boolean;
  /** `stream_options.include_usage` (OpenAI-compatible only). */
  streamUsage: boolean;
  /** Send earlier tool-call turns' reasoning back (OpenAI-compatible `reasoning_content`). */
  replayReasoning: boolean;
}

/** Where a transport hands content and reasoning as they arrive (once, whole, when not streaming). */
export interface WireSink {
  content(delta: string): void;
  reasoning(delta: string): void;
}

export interface WireResult {
  /** `text` is the raw content as handed to the sink: `<think>` tags are still in it. */
  turn: ModelTurn;
  /** Asked to stream, it answered one JSON body: the endpoint ignores `stream`. */
  streamIgnored: boolean;
  /** The reasoning shape the wire itself showed (tags in content are found later). */
  reasoningShape: 'none' | 'reasoning-field' | 'anthropic-thinking';
}
