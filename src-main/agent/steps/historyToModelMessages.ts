import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import type { ToolResult } from '../../../src-shared/tools/toolResult.js';
import { payloadForModel } from '../../../src-shared/tools/toolSdk.js';
import type { ModelMessage } from '../../model/modelClient.js';

const INTERRUPTED: ToolResult = {
  ok: false,
  error: { code: 'cancelled', message: 'This call did not finish: the run was stopped or the app was closed.', retryable: false },
};

/**
 * The saved conversation as the model sees it. Notices are for the person only, and so is
 * what a payload tells the host alone (`load_layers[].info`). A call that never got its result
 * (the app was killed mid-run) is answered as cancelled, because providers reject a history
 * with an unanswered tool call.
 */
export function historyToModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  const results = new Map<string, ToolResult>();
  for (const m of messages) {
    if (m.role === 'tool' && m.tool?.result) results.set(m.tool.callId, m.tool.result);
  }
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'assistant') {
      const calls = m.toolCalls ?? [];
      if (!m.text && calls.length === 0) continue;
      // The id lets the run attach the reasoning it kept in memory (streamTurn, reasoningMemory).
      out.push(
        calls.length
          ? { role: 'assistant', content: m.text, toolCalls: calls, messageId: m.id }
          : { role: 'assistant', content: m.text, messageId: m.id },
      );
      for (const call of calls) {
        out.push({ role: 'tool', toolCallId: call.id, content: JSON.stringify(resultForModel(results.get(call.id) ?? INTERRUPTED)) });
      }
    }
  }
  return out;
}

function resultForModel(result: ToolResult): ToolResult {
  if (!result.ok) return result;
  const data = payloadForModel(result.data);
  return data === result.data ? result : { ok: true, data };
}
