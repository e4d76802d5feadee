import { randomUUID } from 'node:crypto';
import type { ToolCallRequest } from '../../src-shared/domain/chat.js';
import type { ModelTurn } from './modelClient.js';

/**
 * Folds `chat.completion.chunk` objects (already JSON-parsed) into one ModelTurn, and turns
 * a complete `chat.completion` into the same shape. Everything is read defensively: the
 * "OpenAI-compatible" servers differ in which fields they send, null or omit.
 */

export interface ChatTurnAccumulator {
  /** Folds one chunk; returns the text and reasoning it added, so the caller can forward them live. */
  add(chunk: unknown): { text: string; reasoning: string };
  /** Whether any chunk carried a finish_reason (a complete turn even without `[DONE]`). */
  readonly finished: boolean;
  result(): ModelTurn;
}

interface CallSlot {
  id: string | null;
  name: string | null;
  args: string;
}

export function createChatTurnAccumulator(): ChatTurnAccumulator {
  let text = '';
  let reasoning = '';
  let stopReason: string | null = null;
  let usage: ModelTurn['usage'] = null;
  // Keyed by the wire `index`, not by arrival order: some gateways start at 1, and
  // parallel calls may interleave their fragments.
  const slots = new Map<number, CallSlot>();
  let lastIndex: number | null = null;

  function slotFor(delta: Record<string, unknown>): CallSlot {
    let index: number;
    if (typeof delta.index === 'number') {
      index = delta.index;
    } else if (lastIndex === null || (typeof delta.id === 'string' && delta.id !== slots.get(lastIndex)?.id)) {
      // No index at all (a few local servers): a new id means a new call, anything else
      // continues the previous one.
      index = slots.size === 0 ? 0 : Math.max(...slots.keys()) + 1;
    } else {
      index = lastIndex;
    }
    lastIndex = index;
    let slot = slots.get(index);
    if (!slot) {
      slot = { id: null, name: null, args: '' };
      slots.set(index, slot);
    }
    return slot;
  }

  function addToolCallDelta(raw: unknown): void {
    if (!isRecord(raw)) return;
    const slot = slotFor(raw);
    if (slot.id === null && typeof raw.id === 'string' && raw.id !== '') slot.id = raw.id;
    const fn = isRecord(raw.function) ? raw.function : null;
    if (!fn) return;
    if (slot.name === null && typeof fn.name === 'string' && fn.name !== '') slot.name = fn.name;
    if (typeof fn.arguments === 'string') slot.args += fn.arguments;
    // Some servers send a whole call with arguments as an object rather than a string.
    else if (isRecord(fn.arguments)) slot.args += JSON.stringify(fn.arguments);
  }

  return {
    add(chunk) {
      const none = { text: '', reasoning: '' };
      if (!isRecord(chunk)) return none;
      const chunkUsage = readUsage(chunk.usage);
      if (chunkUsage) usage = chunkUsage;
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (!isRecord(choice)) return none;
      const added = { ...none };
      const delta = isRecord(choice.delta) ? choice.delta : null;
      if (delta) {
        added.text = contentText(delta.content);
        added.reasoning = reasoningText(delta);
        text += added.text;
        reasoning += added.reasoning;
        if (Array.isArray(delta.tool_calls)) delta.tool_calls.forEach(addToolCallDelta);
      }
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
        stopReason = choice.finish_reason;
      }
      return added;
    },
    get finished() {
      return stopReason !== null;
    },
    result() {
      const ordered = [...slots.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
      return { text, toolCalls: ordered.filter((s) => s.name !== null).map(toRequest), stopReason, usage, reasoning };
    },
  };
}

/** A non-streaming `chat.completion` body (a server that ignored `stream:true`). */
export function turnFromCompletion(body: unknown): ModelTurn {
  const root = isRecord(body) ? body : {};
  const choice = Array.isArray(root.choices) && isRecord(root.choices[0]) ? root.choices[0] : {};
  const message = isRecord(choice.message) ? choice.message : {};
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const toolCalls: ToolCallRequest[] = [];
  for (const call of calls) {
    if (!isRecord(call) || !isRecord(call.function) || typeof call.function.name !== 'string') continue;
    const args = call.function.arguments;
    toolCalls.push(
      toRequest({
        id: typeof call.id === 'string' && call.id !== '' ? call.id : null,
        name: call.function.name,
        args: typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args),
      }),
    );
  }
  return {
    text: contentText(message.content),
    toolCalls,
    stopReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: readUsage(root.usage),
    reasoning: reasoningText(message),
  };
}

/**
 * Reasoning sent beside the content: `reasoning_content` (DeepSeek, llama.cpp, vLLM, Z.ai)
 * or `reasoning` (OpenRouter, newer Ollama). OpenRouter sends both `reasoning` and
 * `reasoning_details` with the same text; the details (and their signatures) are not ours to read.
 */
function reasoningText(delta: Record<string, unknown>): string {
  if (typeof delta.reasoning_content === 'string') return delta.reasoning_content;
  if (typeof delta.reasoning === 'string') return delta.reasoning;
  return '';
}

function toRequest(slot: CallSlot): ToolCallRequest {
  return {
    // The loop pairs results to calls by id, so a server that sends none still needs one.
    id: slot.id ?? `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    name: slot.name ?? '',
    // A call without parameters often arrives with no argument text at all; "{}" is what
    // the dispatcher can parse and means the same.
    arguments: slot.args.trim() === '' ? '{}' : slot.args,
  };
}

function readUsage(raw: unknown): ModelTurn['usage'] {
  if (!isRecord(raw)) return null;
  const input = raw.prompt_tokens;
  const output = raw.completion_tokens;
  if (typeof input !== 'number' && typeof output !== 'number') return null;
  return {
    inputTokens: typeof input === 'number' ? input : 0,
    outputTokens: typeof output === 'number' ? output : 0,
  };
}

/** Content is usually a string, null on calls-only turns, and an array of parts on a few servers. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
