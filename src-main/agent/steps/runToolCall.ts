import { randomUUID } from 'node:crypto';
import type { ChatMessage, ToolCallRequest, ToolCallStatus } from '../../../src-shared/domain/chat.js';
import type { ToolResult } from '../../../src-shared/tools/toolResult.js';
import type { DispatchOutcome, DispatchRequest, ToolDispatcher } from '../../tool-host/toolDispatcher.js';
import type { RegisteredTool } from '../../tool-host/toolRegistry.js';
import type { RunContext } from '../runContext.js';
import type { CallGuards } from './callGuards.js';

/**
 * One call of the model's turn, shown as a card that follows it through approval and
 * execution. The outcome is saved in the conversation, so the next turn (and a restart)
 * knows what happened.
 */
export async function runToolCall(
  ctx: RunContext,
  dispatcher: ToolDispatcher,
  guards: CallGuards,
  call: ToolCallRequest,
): Promise<ToolResult> {
  const id = randomUUID();
  let card: NonNullable<ChatMessage['tool']> = {
    callId: call.id,
    toolId: null,
    name: call.name,
    title: call.name,
    args: safeJson(call.arguments),
    summary: '',
    status: 'pending',
    durationMs: null,
    result: null,
  };
  const update = (patch: Partial<typeof card>) => {
    card = { ...card, ...patch };
    ctx.save({ id, role: 'tool', text: '', tool: card });
  };
  update({});

  const req: DispatchRequest = {
    name: call.name,
    rawArgs: call.arguments,
    caller: 'model',
    callId: call.id,
    runId: ctx.runId,
    conversationId: ctx.conversationId,
    signal: ctx.signal,
    onValidated: (tool, args, summary) => update({ toolId: tool.def.id, title: tool.def.title, args, summary }),
    onStatus: (status) => update({ status }),
    onProgress: (fraction, message) => ctx.emit('tool/progress', { callId: call.id, fraction, message }),
  };
  // A call the loop guards answer is not run, but it is audited like any refusal.
  const blocked = guards.before(call);
  const outcome: DispatchOutcome = blocked ? dispatcher.refuse(req, blocked) : await dispatcher.dispatch(req);
  const status: ToolCallStatus = outcome.result.ok ? 'ok' : outcome.result.error.code === 'rejected_by_user' ? 'rejected' : 'error';
  update({ status, durationMs: outcome.durationMs, result: outcome.result });
  const notice = outcome.result.ok ? noticeOf(outcome.tool, outcome.result.data) : null;
  if (notice) ctx.save({ id: randomUUID(), role: 'notice', text: notice, level: 'info' });
  for (const name of outcome.loadedLayers)
    ctx.save({ id: randomUUID(), role: 'notice', text: `Loaded layer ${name} (tool output)`, level: 'info' });
  return outcome.result;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The tool's line for the person when a call changed what they see (its `notice` face). */
function noticeOf(tool: RegisteredTool | null, data: unknown): string | null {
  try {
    return tool?.def.notice?.(data) ?? null;
  } catch {
    return null;
  }
}
