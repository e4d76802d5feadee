import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { createAppStore } from './appStore.js';
import { selectLayersTopFirst } from './slices/layersSlice.js';
import { messageTexts, testMessage } from './testing/chatFixtures.js';

describe('chat slice', () => {
  it('keeps messages in seq order whatever order they arrive in', () => {
    const store = createAppStore();
    store.getState().upsertMessage(testMessage('b', 2));
    store.getState().upsertMessage(testMessage('a', 1));
    store.getState().upsertMessage(testMessage('c', 3));
    assert.deepEqual(messageTexts(store), ['a', 'b', 'c']);
  });

  it('streams deltas into a placeholder, then main’s copy replaces it', () => {
    const store = createAppStore();
    store.getState().setMessages([testMessage('u1', 1, 'hi', 'user')]);
    store.getState().appendDelta('m2', 'Hel');
    store.getState().appendDelta('m2', 'lo');
    const placeholder = store.getState().messagesById['m2']!;
    assert.equal(placeholder.role, 'assistant');
    assert.deepEqual(messageTexts(store), ['hi', 'Hello']);
    store.getState().upsertMessage(testMessage('m2', 2, 'Hello there'));
    assert.deepEqual(messageTexts(store), ['hi', 'Hello there']);
    assert.equal(store.getState().messageIds.length, 2);
  });

  it('appends deltas to a known message', () => {
    const store = createAppStore();
    store.getState().upsertMessage(testMessage('m', 1, ''));
    store.getState().appendDelta('m', 'abc');
    assert.deepEqual(messageTexts(store), ['abc']);
  });
});

describe('approvals slice', () => {
  const request = (id: string): ApprovalRequest => ({
    id,
    callId: `call-${id}`,
    toolId: 'layers.remove',
    title: 'Remove layer',
    description: '',
    summary: '',
    safety: 'write',
    args: {},
    rememberable: true,
  });

  it('queues requests once each and drops them when resolved', () => {
    const store = createAppStore();
    store.getState().enqueueApproval(request('a'));
    store.getState().enqueueApproval(request('b'));
    store.getState().enqueueApproval(request('a'));
    assert.deepEqual(
      store.getState().pendingApprovals.map((r) => r.id),
      ['a', 'b'],
    );
    store.getState().resolveApproval('a');
    assert.deepEqual(
      store.getState().pendingApprovals.map((r) => r.id),
      ['b'],
    );
  });
});

describe('layers slice', () => {
  it('stores bottom-first and gives the panel a stable top-first list', () => {
    const store = createAppStore();
    const layer = (id: string, order: number) => ({ id, order }) as never;
    store.getState().setLayers([layer('top', 2), layer('bottom', 0), layer('mid', 1)]);
    assert.deepEqual(
      store.getState().layers.map((l) => l.id),
      ['bottom', 'mid', 'top'],
    );
    const first = selectLayersTopFirst(store.getState());
    assert.deepEqual(
      first.map((l) => l.id),
      ['top', 'mid', 'bottom'],
    );
    assert.equal(selectLayersTopFirst(store.getState()), first);
  });
});

describe('map slice', () => {
  it('numbers fit requests so the same box can be asked for twice', () => {
    const store = createAppStore();
    store.getState().requestFit([0, 0, 1, 1]);
    store.getState().requestFit([0, 0, 1, 1]);
    assert.equal(store.getState().fitRequest?.seq, 2);
  });
});
