/**
 * What a test scripts, and how one scripted reply becomes OpenAI Chat Completions wire
 * objects (stream chunks or a whole completion). Node built-ins only: this server is an
 * independent peer of the app, so it cannot share the app's notion of the format.
 */

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as its JSON text; a string is sent verbatim (to script malformed JSON). */
  arguments: object | string;
  id?: string;
}

export interface ScriptReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Characters per content/arguments delta. Default 8, so arguments span many chunks. */
  chunkSize?: number;
  /** Pause between stream chunks (or before a non-streamed answer), for Stop tests. */
  delayMs?: number;
  /** An HTTP error status (>= 400) answered instead of a completion. */
  status?: number;
  /** The JSON body of that error; a standard OpenAI error envelope when omitted. */
  errorBody?: object;
  /** Drop the connection after this many SSE events, with no finish and no `[DONE]`. */
  cutAfterChunks?: number;
  /** Answer one `chat.completion` JSON even when asked to stream, like servers that ignore `stream`. */
  ignoreStream?: boolean;
  /**
   * Reasoning before the answer. Chat Completions: `reasoning_content` deltas (or the shape
   * `reasoningShape` names); Anthropic: a signed thinking block.
   */
  reasoning?: string;
  /** How reasoning travels on the Chat Completions wire. Default `reasoning_content`. */
  reasoningShape?: 'reasoning_content' | 'reasoning' | 'think-tags';
  /** Signature of the Anthropic thinking block; a recognisable one is made up when omitted. */
  signature?: string;
  /** `Retry-After` sent with an error status (seconds, or an HTTP date). */
  retryAfter?: number | string;
  /** Answer these bytes as they are (a recorded provider response), ignoring everything above. */
  raw?: { body: string | Uint8Array; contentType: string; status?: number };
  /** Write a raw body this many bytes at a time, so events and characters split across reads. */
  rawSliceBytes?: number;
}

/** A message as received, loosely typed: tests read the app's requests through it. */
export interface ReceivedMessage {
  role: string;
  content?: string | null | unknown[];
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface ReceivedRequest {
  model?: string;
  messages: ReceivedMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export type ScriptStep = ScriptReply | ((body: ReceivedRequest) => ScriptReply);

export const NO_MORE_STEPS_TEXT = '(scripted model: no more steps)';

export interface ReplyContext {
  completionId: string;
  model: string;
  created: number;
  /** Makes call ids unique across the server's life when the script gives none. */
  nextCallId: () => string;
  promptTokens: number;
}

export interface ResolvedCall {
  id: string;
  name: string;
  args: string;
}

export function resolveCalls(reply: ScriptReply, ctx: ReplyContext): ResolvedCall[] {
  return (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? ctx.nextCallId(),
    name: call.name,
    args: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

/** Splits by code points so a fragment never ends inside a surrogate pair. */
export function splitIntoPieces(text: string, size: number): string[] {
  const points = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += step) pieces.push(points.slice(i, i + step).join(''));
  return pieces;
}

/** A rough but stable count: tests can assert usage arrives, not that it is exact. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function usageOf(reply: ScriptReply, calls: ResolvedCall[], ctx: ReplyContext) {
  const completion = estimateTokens((reply.text ?? '') + calls.map((c) => c.name + c.args).join(''));
  return { prompt_tokens: ctx.promptTokens, completion_tokens: completion, total_tokens: ctx.promptTokens + completion };
}

/** The `chat.completion.chunk` objects of a streamed reply, in order, shaped like OpenAI's. */
export function replyChunks(reply: ScriptReply, ctx: ReplyContext, includeUsage: boolean): object[] {
  const calls = resolveCalls(reply, ctx);
  const size = reply.chunkSize ?? 8;
  const chunk = (choices: object[], usage: object | null = null) => ({
    id: ctx.completionId,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: 'fp_scripted',
    choices,
    usage,
  });
  const delta = (value: object, finish: string | null = null) => chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finish }]);

  const chunks: object[] = [delta({ role: 'assistant', content: '' })];
  const shape = reply.reasoningShape ?? 'reasoning_content';
  const reasoning = reply.reasoning ?? '';
  let text = reply.text ?? '';
  if (reasoning !== '' && shape === 'think-tags') text = `<think>${reasoning}</think>\n\n${text}`;
  else for (const piece of splitIntoPieces(reasoning, size)) chunks.push(delta({ [shape]: piece }));
  for (const piece of splitIntoPieces(text, size)) chunks.push(delta({ content: piece }));
  calls.forEach((call, index) => {
    chunks.push(delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of splitIntoPieces(call.args, size)) {
      chunks.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(delta({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  if (includeUsage) chunks.push(chunk([], usageOf(reply, calls, ctx)));
  return chunks;
}

/** The whole `chat.completion` body of a reply, for requests without `stream:true`. */
export function replyCompletion(reply: ScriptReply, ctx: ReplyContext): object {
  const calls = resolveCalls(reply, ctx);
  const shape = reply.reasoningShape ?? 'reasoning_content';
  let text = reply.text ?? '';
  if (reply.reasoning && shape === 'think-tags') text = `<think>${reply.reasoning}</think>\n\n${text}`;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: calls.length > 0 && text === '' ? null : text,
    refusal: null,
  };
  if (reply.reasoning && shape !== 'think-tags') message[shape] = reply.reasoning;
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.args },
    }));
  }
  return {
    id: ctx.completionId,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: 'fp_scripted',
    choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: usageOf(reply, calls, ctx),
  };
}

/** The body of a scripted HTTP error, in OpenAI's envelope unless the script gave one. */
export function errorBodyOf(reply: ScriptReply, status: number): object {
  if (reply.errorBody) return reply.errorBody;
  const known: Record<number, { type: string; code: string; message: string }> = {
    401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided (scripted).' },
    404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist (scripted).' },
    429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached (scripted).' },
  };
  const entry = known[status] ?? { type: 'server_error', code: 'server_error', message: `Scripted error ${status}.` };
  return { error: { message: entry.message, type: entry.type, param: null, code: entry.code } };
}
