/**
 * One scripted reply as Anthropic Messages wire objects: the SSE events of a stream
 * (message_start, content blocks with text_delta / thinking_delta + signature_delta /
 * input_json_delta, message_delta, message_stop) or a whole Message. Shaped after the
 * recorded streams in ../shared/fixtures/model-streams. Node built-ins only.
 */
import { estimateTokens, resolveCalls, splitIntoPieces, type ReplyContext, type ScriptReply } from './scriptedReply.js';

export interface AnthropicEvent {
  event: string;
  data: object;
}

function outputTokens(reply: ScriptReply): number {
  return estimateTokens((reply.reasoning ?? '') + (reply.text ?? '') + JSON.stringify(reply.toolCalls ?? []));
}

export function signatureOf(reply: ScriptReply, ctx: ReplyContext): string {
  return reply.signature ?? `sig_scripted_${ctx.completionId}`;
}

export function anthropicEvents(reply: ScriptReply, ctx: ReplyContext): AnthropicEvent[] {
  const size = reply.chunkSize ?? 8;
  const calls = resolveCalls(reply, ctx).map((c) => ({ ...c, id: c.id.replace(/^call_/, 'toolu_') }));
  const events: AnthropicEvent[] = [];
  const push = (event: string, data: Record<string, unknown>) => events.push({ event, data: { type: event, ...data } });
  push('message_start', {
    message: {
      id: `msg_${ctx.completionId}`,
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: ctx.promptTokens, output_tokens: 1 },
    },
  });
  let index = 0;
  if (reply.reasoning) {
    push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    events.push({ event: 'ping', data: { type: 'ping' } });
    for (const piece of splitIntoPieces(reply.reasoning, size)) {
      push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
    }
    push('content_block_delta', { index, delta: { type: 'signature_delta', signature: signatureOf(reply, ctx) } });
    push('content_block_stop', { index });
    index += 1;
  }
  if (reply.text) {
    push('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of splitIntoPieces(reply.text, size))
      push('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    push('content_block_stop', { index });
    index += 1;
  }
  for (const call of calls) {
    push('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    // Real streams open with an empty fragment.
    for (const piece of ['', ...splitIntoPieces(call.args, size)]) {
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    push('content_block_stop', { index });
    index += 1;
  }
  push('message_delta', {
    delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: outputTokens(reply) },
  });
  push('message_stop', {});
  return events;
}

export function anthropicMessage(reply: ScriptReply, ctx: ReplyContext): object {
  const calls = resolveCalls(reply, ctx).map((c) => ({ ...c, id: c.id.replace(/^call_/, 'toolu_') }));
  const content: object[] = [];
  if (reply.reasoning) content.push({ type: 'thinking', thinking: reply.reasoning, signature: signatureOf(reply, ctx) });
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const call of calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseObject(call.args) });
  return {
    id: `msg_${ctx.completionId}`,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: ctx.promptTokens, output_tokens: outputTokens(reply) },
  };
}

/** An error in Anthropic's envelope; the type follows the status as the API does. */
export function anthropicErrorBody(reply: ScriptReply, status: number): object {
  if (reply.errorBody) return reply.errorBody;
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  const type = types[status] ?? 'api_error';
  return { type: 'error', error: { type, message: `Scripted ${type} (${status}).` } };
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
