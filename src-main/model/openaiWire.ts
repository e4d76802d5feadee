import type { ModelMessage, ModelTool, TurnRequest } from './modelClient.js';

/**
 * The request side of the OpenAI Chat Completions wire format: our neutral messages and
 * tools turned into what every OpenAI-compatible server (OpenAI, Ollama, LM Studio,
 * llama.cpp, vLLM, gateways) accepts.
 */

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[]; reasoning_content?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface OpenAiChatRequestBody {
  model: string;
  messages: OpenAiMessage[];
  tools?: OpenAiTool[];
  tool_choice?: 'auto';
  stream: boolean;
  stream_options?: { include_usage: true };
}

export interface ChatRequestOptions {
  /** Ask for SSE (default true). */
  stream?: boolean;
  /** Send `stream_options.include_usage` when streaming (default true; a few servers refuse it). */
  streamUsage?: boolean;
  /**
   * Send the reasoning of earlier tool-call turns back as `reasoning_content` (DeepSeek's
   * thinking mode with tools wants it; everyone else must not get it).
   */
  replayReasoning?: boolean;
}

/**
 * Where to POST. People paste the base URL in every shape the docs of their server show,
 * so accept `…/v1`, `…/v1/` and the full `…/v1/chat/completions`.
 */
export function chatCompletionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  if (/\/chat\/completions$/i.test(trimmed)) return trimmed;
  return `${trimmed}/chat/completions`;
}

/** The model list beside it: `…/v1/models`. */
export function modelsUrl(baseUrl: string): string {
  return `${chatCompletionsUrl(baseUrl).replace(/\/chat\/completions$/i, '')}/models`;
}

export function toOpenAiMessage(message: ModelMessage, replayReasoning = false): OpenAiMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      const out: OpenAiMessage = {
        role: 'assistant',
        // OpenAI documents null for a calls-only turn; some strict servers reject "" there.
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
      if (replayReasoning && message.reasoning) out.reasoning_content = message.reasoning;
      return out;
    }
  }
}

export function toOpenAiTool(tool: ModelTool): OpenAiTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

export function buildChatRequestBody(model: string, request: TurnRequest, options: ChatRequestOptions = {}): OpenAiChatRequestBody {
  const stream = options.stream ?? true;
  const body: OpenAiChatRequestBody = {
    model,
    messages: request.messages.map((m) => toOpenAiMessage(m, options.replayReasoning ?? false)),
    stream,
  };
  // Without this OpenAI sends no usage at all when streaming.
  if (stream && (options.streamUsage ?? true)) body.stream_options = { include_usage: true };
  // An empty `tools` array is rejected by several servers, so leave both keys out.
  if (request.tools.length > 0) {
    body.tools = request.tools.map(toOpenAiTool);
    body.tool_choice = 'auto';
  }
  return body;
}
