import { randomUUID } from 'node:crypto';
import type { ChatMessage, ToolCallRequest } from '../../../src-shared/domain/chat.js';
import { ModelError, type ModelClient, type TurnRequest } from '../../model/modelClient.js';
import type { RunContext } from '../runContext.js';
import { keepReasoning, withKeptReasoning } from './reasoningMemory.js';

export type TurnOutcome = { kind: 'turn'; message: ChatMessage; toolCalls: ToolCallRequest[] } | { kind: 'failed'; error: ModelError };

/**
 * Streams one model turn into the chat: deltas are pushed as they come, and the finished
 * turn (text and calls) is saved as one assistant message. On failure or Stop, any text
 * already shown is saved too, so the chat and the saved conversation read the same; calls
 * of an unfinished turn are never saved. Reasoning is pushed live and never saved: what
 * the same run must send back (Anthropic's signed thinking) is kept in memory beside it.
 */
export async function streamTurn(ctx: RunContext, model: ModelClient, request: TurnRequest): Promise<TurnOutcome> {
  const messageId = randomUUID();
  let shown = '';
  try {
    const identity = model.identity ?? model.model;
    const turn = await model.streamTurn(
      { ...request, messages: withKeptReasoning(ctx, identity, request.messages) },
      {
        signal: ctx.signal,
        onReasoningDelta: (delta) => ctx.emit('assistant/reasoning-delta', { messageId, delta }),
        onTextDelta: (delta) => {
          shown += delta;
          ctx.emit('assistant/delta', { messageId, delta });
        },
      },
    );
    const toolCalls = uniqueCallIds(ctx, turn.toolCalls);
    const message = ctx.save({ id: messageId, role: 'assistant', text: turn.text, toolCalls });
    keepReasoning(ctx, identity, messageId, turn);
    return { kind: 'turn', message, toolCalls };
  } catch (err) {
    if (shown) ctx.save({ id: messageId, role: 'assistant', text: shown });
    const error = err instanceof ModelError ? err : new ModelError(err instanceof Error ? err.message : String(err));
    return { kind: 'failed', error: ctx.signal.aborted ? new ModelError('Stopped', null, true) : error };
  }
}

/** Some local servers reuse ids like `call_0` on every turn; results are matched by id, so make them unique. */
function uniqueCallIds(ctx: RunContext, calls: ToolCallRequest[]): ToolCallRequest[] {
  return calls.map((c) => {
    if (c.id && !ctx.usedCallIds.has(c.id)) {
      ctx.usedCallIds.add(c.id);
      return c;
    }
    const id = `call_${randomUUID().slice(0, 12)}`;
    ctx.usedCallIds.add(id);
    return { ...c, id };
  });
}
