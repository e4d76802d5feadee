import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import type { ModelClient, ModelMessage, ModelTurn, TurnRequest } from '../../model/modelClient.js';
import type { RunContext } from '../runContext.js';
import { historyToModelMessages } from './historyToModelMessages.js';
import { streamTurn } from './streamTurn.js';

/** A run context that saves into an array and records pushed events. */
function fakeRun() {
  const saved: ChatMessage[] = [];
  const events: { name: string; payload: unknown }[] = [];
  const ctx: RunContext = {
    runId: 'r',
    conversationId: 'c',
    signal: new AbortController().signal,
    emit: (name, payload) => void events.push({ name, payload }),
    usedCallIds: new Set(),
    save: (draft) => {
      const message = { ...draft, conversationId: 'c', seq: saved.length, createdAt: 'now' } as ChatMessage;
      const at = saved.findIndex((m) => m.id === draft.id);
      if (at >= 0) saved[at] = message;
      else saved.push(message);
      return message;
    },
  };
  return { ctx, saved, events };
}

/** A model that answers the scripted turns and keeps the requests it got. */
function fakeModel(identity: string, turns: ModelTurn[]): ModelClient & { requests: TurnRequest[] } {
  const requests: TurnRequest[] = [];
  return {
    model: identity,
    identity,
    requests,
    async streamTurn(request, callbacks) {
      requests.push(request);
      const turn = turns.shift()!;
      if (turn.reasoning) callbacks.onReasoningDelta?.(turn.reasoning);
      if (turn.text) callbacks.onTextDelta(turn.text);
      return turn;
    },
  };
}

const THINKING = [{ type: 'thinking' as const, thinking: 'secret plan', signature: 'sig-1' }];
const callTurn: ModelTurn = {
  text: '',
  toolCalls: [{ id: 'call_1', name: 'inspect_list_layers', arguments: '{}' }],
  stopReason: 'tool_use',
  usage: null,
  reasoning: 'secret plan',
  thinking: THINKING,
};
const plainTurn: ModelTurn = { text: 'Done.', toolCalls: [], stopReason: 'end_turn', usage: null };

const assistantOf = (request: TurnRequest) =>
  request.messages.find((m): m is Extract<ModelMessage, { role: 'assistant' }> => m.role === 'assistant');

describe('reasoning kept for the run', () => {
  it('is pushed live, never saved, and replayed in the next request of the same run to the same model', async () => {
    const { ctx, saved, events } = fakeRun();
    const model = fakeModel('endpoint-a|thinking:2048', [callTurn, plainTurn]);
    await streamTurn(ctx, model, { messages: [{ role: 'user', content: 'hi' }], tools: [] });
    assert.deepEqual(
      events.filter((e) => e.name === 'assistant/reasoning-delta').map((e) => (e.payload as { delta: string }).delta),
      ['secret plan'],
    );
    assert.ok(!JSON.stringify(saved).includes('secret plan'), 'not in the saved messages');
    await streamTurn(ctx, model, { messages: historyToModelMessages(saved), tools: [] });
    const replayed = assistantOf(model.requests[1]!);
    assert.deepEqual(replayed?.thinking, THINKING);
    assert.equal(replayed?.reasoning, 'secret plan');
  });

  it('is dropped when the model changes, and is not carried into another run', async () => {
    const first = fakeRun();
    const a = fakeModel('endpoint-a', [callTurn]);
    await streamTurn(first.ctx, a, { messages: [{ role: 'user', content: 'hi' }], tools: [] });
    const b = fakeModel('endpoint-b', [plainTurn]);
    await streamTurn(first.ctx, b, { messages: historyToModelMessages(first.saved), tools: [] });
    assert.equal(assistantOf(b.requests[0]!)?.thinking, undefined, 'another model gets no thinking blocks');

    const second = fakeRun();
    const again = fakeModel('endpoint-a', [plainTurn]);
    await streamTurn(second.ctx, again, { messages: historyToModelMessages(first.saved), tools: [] });
    assert.equal(assistantOf(again.requests[0]!)?.thinking, undefined, 'a new run starts without them');
  });

  it('turns without calls keep nothing (nothing will continue them)', async () => {
    const { ctx, saved } = fakeRun();
    const model = fakeModel('a', [{ ...plainTurn, reasoning: 'musing', thinking: THINKING }, plainTurn]);
    await streamTurn(ctx, model, { messages: [{ role: 'user', content: 'hi' }], tools: [] });
    await streamTurn(ctx, model, { messages: historyToModelMessages(saved), tools: [] });
    assert.equal(assistantOf(model.requests[1]!)?.thinking, undefined);
  });
});
