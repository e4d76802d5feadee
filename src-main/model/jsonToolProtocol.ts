import type { ToolCallRequest } from '../../src-shared/domain/chat.js';
import type { ModelMessage, ModelTool, TurnRequest } from './modelClient.js';

/**
 * The fallback for endpoints that refuse the `tools` parameter: the tool list goes into the
 * system prompt, the model writes one JSON object per call in its reply, and we parse them
 * out again. Pure functions; the adaptive client decides when to use them.
 */

export const JSON_CALL_FORM = '{"tool": "<tool name>", "arguments": { ... }}';

export function jsonToolInstructions(tools: readonly ModelTool[]): string {
  const catalogue = tools
    .map((tool) => `- ${tool.name}: ${tool.description}\n  arguments (JSON Schema): ${JSON.stringify(tool.parameters)}`)
    .join('\n');
  return [
    '## Calling tools',
    'Tools are called by writing JSON in your reply. To call a tool, write one JSON object per call, each on its own line, in exactly this form:',
    JSON_CALL_FORM,
    'Write at most one short sentence before the calls and nothing after them, then stop: the results come back in the next message, starting with "Tool result".',
    'When no tool is needed, answer in plain text with no JSON object.',
    '',
    'Available tools:',
    catalogue,
  ].join('\n');
}

/**
 * The request as a tools-less endpoint can take it: instructions appended to the system
 * prompt, earlier calls written back as the JSON the model would have produced, and tool
 * results as user messages (such endpoints often refuse the `tool` role too).
 */
export function toJsonProtocolRequest(request: TurnRequest): TurnRequest {
  const instructions = jsonToolInstructions(request.tools);
  const names = new Map<string, string>();
  const out: ModelMessage[] = [];
  let systemDone = false;
  const pushUser = (content: string) => {
    const last = out.at(-1);
    if (last?.role === 'user') out[out.length - 1] = { role: 'user', content: `${last.content}\n\n${content}` };
    else out.push({ role: 'user', content });
  };
  for (const message of request.messages) {
    if (message.role === 'system') {
      out.push(systemDone ? message : { role: 'system', content: `${message.content}\n\n${instructions}` });
      systemDone = true;
    } else if (message.role === 'user') {
      pushUser(message.content);
    } else if (message.role === 'tool') {
      const name = names.get(message.toolCallId) ?? 'tool';
      pushUser(`Tool result (${name}, call ${message.toolCallId}):\n${message.content}`);
    } else {
      const calls = message.toolCalls ?? [];
      for (const call of calls) names.set(call.id, call.name);
      const written = calls.map((call) => JSON.stringify({ tool: call.name, arguments: parseOr(call.arguments, {}) }));
      out.push({ role: 'assistant', content: [message.content, ...written].filter((part) => part !== '').join('\n') });
    }
  }
  if (!systemDone) out.unshift({ role: 'system', content: instructions });
  return { messages: out, tools: [] };
}

export interface ParsedReply {
  /** The reply without the call objects (and without fences or tags that held only calls). */
  text: string;
  calls: Omit<ToolCallRequest, 'id'>[];
}

/**
 * Finds the calls in a reply written under the JSON protocol. Lenient in what it reads
 * (fences, `<tool_call>` tags, a few common key names, arguments as a string, an array of
 * calls, trailing commas) and strict in what it accepts: only names of offered tools.
 */
export function parseJsonToolCalls(reply: string, toolNames: readonly string[]): ParsedReply {
  const known = new Map(toolNames.map((name) => [normaliseName(name), name]));
  const calls: ParsedReply['calls'] = [];
  const spans: [number, number][] = [];
  let at = 0;
  while (at < reply.length) {
    const start = nextOpening(reply, at);
    if (start < 0) break;
    const end = matchingClose(reply, start);
    if (end < 0) {
      at = start + 1;
      continue;
    }
    const found = callsIn(parseLenient(reply.slice(start, end + 1)), known);
    if (found.length > 0) {
      calls.push(...found);
      spans.push(widenToWrapper(reply, start, end + 1));
      at = end + 1;
    } else {
      at = start + 1;
    }
  }
  if (calls.length === 0) return { text: reply.trim(), calls };
  let text = '';
  let from = 0;
  for (const [s, e] of spans) {
    text += reply.slice(from, s);
    from = e;
  }
  text += reply.slice(from);
  // Fences or tags that held several calls are empty now.
  text = text.replace(/```[a-zA-Z]*\s*```/g, '').replace(/<tool_call>\s*<\/tool_call>/g, '');
  return { text: text.replace(/\n{3,}/g, '\n\n').trim(), calls };
}

/**
 * For live display under the JSON protocol: passes text through until something that may
 * start a call (`{`, a fence, a `<tool_call>` tag) and holds the rest until the turn ends.
 */
export interface JsonCallHoldback {
  feed(text: string): string;
  /** What was passed through so far. */
  readonly shown: string;
}

export function createJsonCallHoldback(): JsonCallHoldback {
  let shown = '';
  let holding = false;
  let pending = '';
  return {
    feed(text) {
      if (holding) return '';
      pending += text;
      const at = pending.search(/\{|`{3}|<tool_call>/);
      if (at >= 0) {
        holding = true;
        const out = pending.slice(0, at);
        shown += out;
        return out;
      }
      // Keep a tail that could begin a fence or a tag.
      const keep = /(`{1,2}|<[a-z_]{0,9})$/.exec(pending)?.[0].length ?? 0;
      const out = pending.slice(0, pending.length - keep);
      pending = pending.slice(pending.length - keep);
      shown += out;
      return out;
    },
    get shown() {
      return shown;
    },
  };
}

function normaliseName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[.\-/]/g, '_');
}

function nextOpening(text: string, from: number): number {
  const a = text.indexOf('{', from);
  const b = text.indexOf('[', from);
  // An array counts only when it opens onto an object: `[{`, perhaps with spaces.
  const arrayOk = b >= 0 && /^\[\s*\{/.test(text.slice(b, b + 40));
  if (a < 0) return arrayOk ? b : -1;
  if (arrayOk && b < a) return b;
  return a;
}

/** Index of the bracket closing the one at `start`, skipping strings; -1 if unbalanced. */
function matchingClose(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

function parseLenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(text.replace(/,\s*([}\]])/g, '$1'));
    } catch {
      return undefined;
    }
  }
}

function callsIn(value: unknown, known: Map<string, string>): ParsedReply['calls'] {
  if (Array.isArray(value)) {
    const all = value.map((item) => callsIn(item, known));
    // An array is a list of calls only if every item is one.
    return all.every((found) => found.length === 1) ? all.flat() : [];
  }
  if (!isRecord(value)) return [];
  for (const key of ['tool_calls', 'calls']) {
    const list = value[key];
    if (Array.isArray(list)) return callsIn(list, known);
  }
  let name: unknown = value.tool ?? value.name ?? value.tool_name;
  let args: unknown = value.arguments ?? value.parameters ?? value.args ?? value.input ?? value.params;
  const fn = value.function;
  if (isRecord(fn)) {
    name = fn.name ?? name;
    args = fn.arguments ?? fn.parameters ?? args;
  } else if (typeof fn === 'string') {
    name = fn;
  }
  if (typeof name !== 'string') return [];
  const wire = known.get(normaliseName(name));
  if (!wire) return [];
  if (typeof args === 'string') args = parseOr(args, undefined);
  if (args === undefined || args === null) args = {};
  if (!isRecord(args)) return [];
  return [{ name: wire, arguments: JSON.stringify(args) }];
}

/** Takes in a fence or `<tool_call>` tag around a call when it holds nothing else. */
function widenToWrapper(text: string, start: number, end: number): [number, number] {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const fenceOpen = /```[a-zA-Z]*\s*$/.exec(before);
  const fenceClose = /^\s*```/.exec(after);
  if (fenceOpen && fenceClose) return [start - fenceOpen[0].length, end + fenceClose[0].length];
  const tagOpen = /<tool_call>\s*$/.exec(before);
  const tagClose = /^\s*<\/tool_call>/.exec(after);
  if (tagOpen && tagClose) return [start - tagOpen[0].length, end + tagClose[0].length];
  return [start, end];
}

function parseOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
