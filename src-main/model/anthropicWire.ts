import type { ModelMessage, ModelTool, ThinkingBlock, TurnRequest } from './modelClient.js';

/**
 * The request side of Anthropic's Messages API: the system prompt apart, content blocks,
 * tool results as user blocks, roles alternating, and an assistant turn's signed thinking
 * blocks first and unchanged.
 */

export const ANTHROPIC_VERSION = '2023-06-01';
/** Output budget when no thinking is asked for; with thinking it is the budget plus this. */
export const ANSWER_TOKENS = 8192;
/** Anthropic's minimum thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

type TextBlock = { type: 'text'; text: string };
type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
type ToolResultBlock = { type: 'tool_result'; tool_use_id: string; content: string };
export type AnthropicBlock = TextBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: string;
  messages: AnthropicMessage[];
  tools?: { name: string; description: string; input_schema: Record<string, unknown> }[];
  stream: boolean;
  thinking?: { type: 'enabled'; budget_tokens: number };
}

/** `…/v1/messages` from the base in any shape people paste: host, `…/v1`, or the full URL. */
export function messagesUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  if (/\/messages$/i.test(trimmed)) return trimmed;
  if (/\/v1$/i.test(trimmed)) return `${trimmed}/messages`;
  return `${trimmed}/v1/messages`;
}

export function anthropicModelsUrl(baseUrl: string): string {
  return messagesUrl(baseUrl).replace(/\/messages$/i, '/models');
}

export function buildAnthropicRequestBody(
  model: string,
  request: TurnRequest,
  options: { stream: boolean; thinkingBudget: number | null },
): AnthropicRequestBody {
  const system = request.messages
    .filter((m): m is Extract<ModelMessage, { role: 'system' }> => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const messages: AnthropicMessage[] = [];
  const add = (role: AnthropicMessage['role'], blocks: AnthropicBlock[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    // The API wants user and assistant to alternate: consecutive results and a following
    // question are one user message.
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: [...blocks] });
  };
  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        add('user', [{ type: 'text', text: message.content }]);
        break;
      case 'tool':
        add('user', [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }]);
        break;
      case 'assistant': {
        const blocks: AnthropicBlock[] = [...(message.thinking ?? []).map((b) => ({ ...b }))];
        if (message.content !== '') blocks.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? [])
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: inputOf(call.arguments) });
        add('assistant', blocks);
        break;
      }
    }
  }
  const budget =
    options.thinkingBudget !== null && options.thinkingBudget >= MIN_THINKING_BUDGET ? Math.floor(options.thinkingBudget) : null;
  const body: AnthropicRequestBody = {
    model,
    max_tokens: budget === null ? ANSWER_TOKENS : budget + ANSWER_TOKENS,
    messages,
    stream: options.stream,
  };
  if (system !== '') body.system = system;
  if (request.tools.length > 0) body.tools = request.tools.map(toAnthropicTool);
  if (budget !== null) body.thinking = { type: 'enabled', budget_tokens: budget };
  return body;
}

function toAnthropicTool(tool: ModelTool) {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}

/** `tool_use.input` must be an object; a call whose arguments never parsed is sent as empty. */
function inputOf(args: string): unknown {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
