import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventName, EventPayload } from '../../src-shared/bridge/contract.js';
import { durableDeltas } from './durableDeltas.js';

function setup(flushMs = 20) {
  const log: string[] = [];
  const saved = new Map<string, string>();
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => {
    if (name === 'assistant/delta') {
      const { messageId, delta } = payload as EventPayload<'assistant/delta'>;
      // The invariant: whatever is shown is already saved.
      log.push(`shown ${delta}`);
      assert.ok(saved.get(messageId)?.endsWith(delta), `"${delta}" shown before it was saved`);
    } else log.push(name);
  };
  const wrapped = durableDeltas(
    emit,
    (id, text) => {
      saved.set(id, text);
      log.push(`saved ${text}`);
    },
    flushMs,
  );
  return { wrapped, log, saved };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('durableDeltas', () => {
  it('saves streamed text before showing it, a batch at a time', async () => {
    const { wrapped, log } = setup();
    wrapped('assistant/delta', { messageId: 'm', delta: 'Hel' });
    wrapped('assistant/delta', { messageId: 'm', delta: 'lo' });
    assert.deepEqual(log, [], 'held, not shown yet');
    await wait(40);
    assert.deepEqual(log, ['saved Hello', 'shown Hello']);
    wrapped('assistant/delta', { messageId: 'm', delta: ' world' });
    await wait(40);
    assert.deepEqual(log.slice(2), ['saved Hello world', 'shown  world']);
  });

  it('drops held text once the finished message is saved, and passes other events through', async () => {
    const { wrapped, log } = setup();
    wrapped('assistant/delta', { messageId: 'm', delta: 'partial' });
    wrapped('message/upserted', { id: 'm', conversationId: 'c', seq: 1, role: 'assistant', text: 'partial and the rest', createdAt: 'x' });
    wrapped('run/changed', { runId: null, status: 'idle' });
    await wait(40);
    assert.deepEqual(log, ['message/upserted', 'run/changed'], 'no late partial save over the finished message');
  });

  it('flushAll saves and shows what is held (closing)', () => {
    const { wrapped, log } = setup(10_000);
    wrapped('assistant/delta', { messageId: 'm', delta: 'abc' });
    wrapped.flushAll();
    assert.deepEqual(log, ['saved abc', 'shown abc']);
  });
});
