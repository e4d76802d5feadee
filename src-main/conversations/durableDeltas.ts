import type { Emit } from '../../src-shared/bridge/contract.js';

/**
 * Makes streamed text durable before it is shown: `assistant/delta` events are held for at
 * most `flushMs`, the text so far is saved as the (unfinished) assistant message, and only
 * then is the held text passed on as one delta. A process killed mid-stream therefore loses
 * nothing the person saw. When the finished message is saved (`message/upserted` with the
 * same id) anything still held is dropped: the saved message already contains it.
 *
 * Sits between the agent and the renderers (composition root); the loop is unaware of it.
 */
export function durableDeltas(emit: Emit, saveText: (messageId: string, text: string) => void, flushMs = 60): Emit & { flushAll(): void } {
  const streams = new Map<string, { text: string; held: string; timer: NodeJS.Timeout | null }>();

  function flush(messageId: string): void {
    const s = streams.get(messageId);
    if (!s || !s.held) return;
    if (s.timer) clearTimeout(s.timer);
    s.timer = null;
    saveText(messageId, s.text);
    const delta = s.held;
    s.held = '';
    emit('assistant/delta', { messageId, delta });
  }

  const wrapped = ((name, payload) => {
    if (name === 'assistant/delta') {
      const { messageId, delta } = payload as { messageId: string; delta: string };
      let s = streams.get(messageId);
      if (!s) {
        s = { text: '', held: '', timer: null };
        streams.set(messageId, s);
      }
      s.text += delta;
      s.held += delta;
      s.timer ??= setTimeout(() => flush(messageId), flushMs);
      return;
    }
    if (name === 'message/upserted') {
      const id = (payload as { id: string }).id;
      const s = streams.get(id);
      if (s) {
        if (s.timer) clearTimeout(s.timer);
        streams.delete(id);
      }
    }
    emit(name, payload);
  }) as Emit & { flushAll(): void };
  wrapped.flushAll = () => {
    for (const id of [...streams.keys()]) flush(id);
  };
  return wrapped;
}
