import type { ModelMessage, ModelTurn, ThinkingBlock } from '../../model/modelClient.js';

/**
 * Reasoning kept for one run, in memory only (it is never saved): Anthropic's signed thinking
 * blocks and the reasoning text of tool-call turns, keyed by the assistant message they came
 * with. The next request of the same run gets them back on those messages; a request to
 * another model (identity) gets nothing, and the run's end drops them with the run.
 */
interface Kept {
  identity: string;
  thinking?: ThinkingBlock[];
  reasoning?: string;
}

const runs = new WeakMap<object, Map<string, Kept>>();

/** Remembers what a finished turn needs replayed; only tool-call turns are ever continued. */
export function keepReasoning(run: object, identity: string, messageId: string, turn: ModelTurn): void {
  if (turn.toolCalls.length === 0 || (!turn.thinking?.length && !turn.reasoning)) return;
  let kept = runs.get(run);
  if (!kept) {
    kept = new Map();
    runs.set(run, kept);
  }
  kept.set(messageId, {
    identity,
    ...(turn.thinking?.length ? { thinking: turn.thinking } : {}),
    ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
  });
}

/** The messages with this run's kept reasoning attached, for the same identity only. */
export function withKeptReasoning(run: object, identity: string, messages: ModelMessage[]): ModelMessage[] {
  const kept = runs.get(run);
  if (!kept) return messages;
  return messages.map((message) => {
    if (message.role !== 'assistant' || !message.messageId) return message;
    const found = kept.get(message.messageId);
    if (!found || found.identity !== identity) return message;
    return {
      ...message,
      ...(found.thinking ? { thinking: found.thinking } : {}),
      ...(found.reasoning ? { reasoning: found.reasoning } : {}),
    };
  });
}
