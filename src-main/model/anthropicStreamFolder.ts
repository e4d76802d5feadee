import { createParser } from 'eventsource-parser';
import { randomUUID } from 'node:crypto';
import type { ToolCallRequest } from '../../src-shared/domain/chat.js';
import { isRecord } from './chatTurnAccumulator.js';
import { streamEndedEarly } from './httpWire.js';
import { ModelError, type ModelTurn, type ThinkingBlock } from './modelClient.js';

/**
 * Turns an Anthropic Messages SSE body, fed in arbitrary slices, into one turn: text
 * blocks, tool_use blocks with their `input_json_delta` fragments joined, and thinking
 * blocks with their `signature_delta` kept exactly as sent (they are replayed verbatim).
 * Also folds a whole (non-streamed) Message. Transport-free, like the chat stream folder.
 */
export interface AnthropicStreamFolder {
  feed(text: string): void;
  /** `message_stop` arrived. */
  readonly done: boolean;
  /** A stop reason arrived (`message_delta`): the turn is whole even if the socket drops now. */
  readonly finished: boolean;
  end(): ModelTurn;
}

export interface AnthropicDeltas {
  text(delta: string): void;
  thinking(delta: string): void;
}

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; json: string; startInput: unknown }
  | { kind: 'other' };

/** In-stream error types and the HTTP status each stands for (for the retry rules). */
const ERROR_STATUS: Record<string, number> = {
  overloaded_error: 529,
  api_error: 500,
  rate_limit_error: 429,
  timeout_error: 504,
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
};

export function createAnthropicStreamFolder(deltas: AnthropicDeltas): AnthropicStreamFolder {
  const blocks = new Map<number, Block>();
  let stopReason: string | null = null;
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let done = false;
  let failure: ModelError | null = null;

  function onData(type: string, data: Record<string, unknown>): void {
    switch (type) {
      case 'message_start': {
        const message = isRecord(data.message) ? data.message : {};
        readUsage(message.usage);
        break;
      }
      case 'content_block_start': {
        const index = Number(data.index);
        blocks.set(index, startBlock(isRecord(data.content_block) ? data.content_block : {}));
        break;
      }
      case 'content_block_delta': {
        const block = blocks.get(Number(data.index));
        const delta = isRecord(data.delta) ? data.delta : {};
        if (!block) break;
        if (delta.type === 'text_delta' && block.kind === 'text' && typeof delta.text === 'string') {
          block.text += delta.text;
          if (delta.text !== '') deltas.text(delta.text);
        } else if (delta.type === 'thinking_delta' && block.kind === 'thinking' && typeof delta.thinking === 'string') {
          block.thinking += delta.thinking;
          if (delta.thinking !== '') deltas.thinking(delta.thinking);
        } else if (delta.type === 'signature_delta' && block.kind === 'thinking' && typeof delta.signature === 'string') {
          block.signature += delta.signature;
        } else if (delta.type === 'input_json_delta' && block.kind === 'tool' && typeof delta.partial_json === 'string') {
          block.json += delta.partial_json;
        }
        break;
      }
      case 'message_delta': {
        const delta = isRecord(data.delta) ? data.delta : {};
        if (typeof delta.stop_reason === 'string') stopReason = delta.stop_reason;
        readUsage(data.usage);
        break;
      }
      case 'message_stop':
        done = true;
        break;
      case 'error': {
        const error = isRecord(data.error) ? data.error : {};
        const kind = typeof error.type === 'string' ? error.type : 'error';
        const message = typeof error.message === 'string' && error.message !== '' ? error.message : kind;
        failure = new ModelError(`${message} (${kind})`, ERROR_STATUS[kind] ?? null);
        break;
      }
      default:
        // ping, and event types added later: nothing to fold.
        break;
    }
  }

  function readUsage(raw: unknown): void {
    if (!isRecord(raw)) return;
    if (typeof raw.input_tokens === 'number') inputTokens = raw.input_tokens;
    if (typeof raw.output_tokens === 'number') outputTokens = raw.output_tokens;
  }

  const parser = createParser({
    onEvent(event) {
      if (done || failure) return;
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        if (event.event === 'error') failure = new ModelError(event.data.trim() || 'The model server reported an error.');
        return;
      }
      if (!isRecord(data)) return;
      // The `type` inside the data is authoritative; the SSE event name is a copy of it.
      const type = typeof data.type === 'string' ? data.type : (event.event ?? '');
      onData(type, data);
    },
  });

  return {
    feed(text) {
      if (done) return;
      parser.feed(text);
      if (failure) throw failure;
    },
    get done() {
      return done;
    },
    get finished() {
      return stopReason !== null;
    },
    end() {
      if (!done) parser.feed('\n\n');
      if (failure) throw failure;
      if (!done && stopReason === null) throw streamEndedEarly('the turn never finished');
      return turnOf(
        [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b),
        stopReason,
        inputTokens,
        outputTokens,
      );
    },
  };
}

/** A whole Message (`stream:false`, or a server that ignored `stream:true`). */
export function turnFromAnthropicMessage(body: unknown, deltas: AnthropicDeltas): ModelTurn {
  const root = isRecord(body) ? body : {};
  const content = Array.isArray(root.content) ? root.content : [];
  const blocks: Block[] = content.map((raw) => {
    const block = startBlock(isRecord(raw) ? raw : {});
    if (block.kind === 'tool' && block.json === '') block.json = JSON.stringify(isRecord(raw) && isRecord(raw.input) ? raw.input : {});
    return block;
  });
  const thinking = blocks.map((b) => (b.kind === 'thinking' ? b.thinking : '')).join('');
  if (thinking !== '') deltas.thinking(thinking);
  const text = blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('');
  if (text !== '') deltas.text(text);
  const usage = isRecord(root.usage) ? root.usage : {};
  return turnOf(
    blocks,
    typeof root.stop_reason === 'string' ? root.stop_reason : null,
    typeof usage.input_tokens === 'number' ? usage.input_tokens : null,
    typeof usage.output_tokens === 'number' ? usage.output_tokens : null,
  );
}

function startBlock(raw: Record<string, unknown>): Block {
  switch (raw.type) {
    case 'text':
      return { kind: 'text', text: typeof raw.text === 'string' ? raw.text : '' };
    case 'thinking':
      return {
        kind: 'thinking',
        thinking: typeof raw.thinking === 'string' ? raw.thinking : '',
        signature: typeof raw.signature === 'string' ? raw.signature : '',
      };
    case 'redacted_thinking':
      return { kind: 'redacted', data: typeof raw.data === 'string' ? raw.data : '' };
    case 'tool_use':
      return {
        kind: 'tool',
        id: typeof raw.id === 'string' && raw.id !== '' ? raw.id : `toolu_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
        name: typeof raw.name === 'string' ? raw.name : '',
        json: '',
        startInput: raw.input,
      };
    default:
      return { kind: 'other' };
  }
}

function turnOf(blocks: Block[], stopReason: string | null, input: number | null, output: number | null): ModelTurn {
  const toolCalls: ToolCallRequest[] = [];
  const thinking: ThinkingBlock[] = [];
  let text = '';
  let reasoning = '';
  for (const block of blocks) {
    if (block.kind === 'text') text += block.text;
    else if (block.kind === 'thinking') {
      reasoning += block.thinking;
      thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.kind === 'redacted') thinking.push({ type: 'redacted_thinking', data: block.data });
    else if (block.kind === 'tool' && block.name !== '') {
      toolCalls.push({ id: block.id, name: block.name, arguments: toolArguments(block) });
    }
  }
  return {
    text,
    toolCalls,
    stopReason,
    usage: input === null && output === null ? null : { inputTokens: input ?? 0, outputTokens: output ?? 0 },
    reasoning,
    thinking,
  };
}

/** The joined `partial_json`; with no fragments, the start block's input (often `{}`). */
function toolArguments(block: Extract<Block, { kind: 'tool' }>): string {
  if (block.json.trim() !== '') return block.json;
  return isRecord(block.startInput) ? JSON.stringify(block.startInput) : '{}';
}
