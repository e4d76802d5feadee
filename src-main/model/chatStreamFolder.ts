import { createParser } from 'eventsource-parser';
import { createChatTurnAccumulator } from './chatTurnAccumulator.js';
import { ModelError, type ModelTurn } from './modelClient.js';
import { streamEndedEarly } from './httpWire.js';
import { wireErrorOf } from './wireErrors.js';

/**
 * Turns the text of a Chat Completions SSE body, fed in arbitrary slices, into one turn.
 * Transport-free on purpose: the client owns fetch, abort and decoding.
 */
export interface ChatStreamFolder {
  feed(text: string): void;
  /** `data: [DONE]` arrived: the caller can stop reading. */
  readonly done: boolean;
  /** A finish_reason arrived: the turn is complete even if `[DONE]` never comes. */
  readonly finished: boolean;
  /** The body ended (or broke off): the turn, or a ModelError if it is incomplete. */
  end(): ModelTurn;
}

export { streamEndedEarly } from './httpWire.js';

export function createChatStreamFolder(
  onTextDelta: (delta: string) => void,
  onReasoningDelta: (delta: string) => void = () => undefined,
): ChatStreamFolder {
  const turn = createChatTurnAccumulator();
  let done = false;
  let failure: ModelError | null = null;

  const parser = createParser({
    onEvent(event) {
      if (done || failure) return;
      const data = event.data.trim();
      if (data === '[DONE]') {
        done = true;
        return;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        // A named error event may carry plain text; any other non-JSON event is noise
        // (keep-alives, vendor comments) and a missing finish is caught at the end.
        if (event.event === 'error') failure = new ModelError(data || 'The model server reported an error.');
        return;
      }
      const wire = wireErrorOf(chunk);
      if (wire) {
        failure = new ModelError(wire.message, wire.code);
        return;
      }
      const added = turn.add(chunk);
      if (added.reasoning !== '') onReasoningDelta(added.reasoning);
      if (added.text !== '') onTextDelta(added.text);
    },
  });

  function throwIfFailed(): void {
    if (failure) throw failure;
  }

  return {
    feed(text) {
      if (done) return;
      parser.feed(text);
      throwIfFailed();
    },
    get done() {
      return done;
    },
    get finished() {
      return turn.finished;
    },
    end() {
      // Flush a last event the server did not close with a blank line (one recorded
      // gateway ends with `data: [DONE]` and no newline).
      if (!done) parser.feed('\n\n');
      throwIfFailed();
      if (!done && !turn.finished) throw streamEndedEarly('the turn never finished');
      return turn.result();
    },
  };
}
