import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Memory } from '../../../src-shared/domain/memory.js';
import { createAppStore } from '../appStore.js';
import { selectMemories, selectMemoriesLoaded, selectMemoryError, selectMemoryOpen } from './memorySlice.js';

const memory = (id: string, text: string): Memory => ({
  id,
  scope: 'project',
  text,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
});

describe('memory slice', () => {
  it('shows "loading" until the first list, then main\'s list as sent; a refusal is shown until the next list', () => {
    const store = createAppStore();
    assert.equal(selectMemoriesLoaded(store.getState()), false);
    store.getState().setMemories([memory('a', 'Rivers are blue')]);
    assert.deepEqual(selectMemories(store.getState()), [memory('a', 'Rivers are blue')]);
    assert.equal(selectMemoriesLoaded(store.getState()), true);
    store.getState().memoryFailed('text: a memory needs text.');
    assert.equal(selectMemoryError(store.getState()), 'text: a memory needs text.');
    store.getState().setMemories([]);
    assert.equal(selectMemoryError(store.getState()), null);
    assert.deepEqual(selectMemories(store.getState()), []);
  });

  it('one drawer at a time: opening memory closes the audit log and the plugins, and each of them closes memory', () => {
    const store = createAppStore();
    store.getState().setAuditOpen(true);
    store.getState().setMemoryOpen(true);
    assert.deepEqual([store.getState().auditOpen, store.getState().pluginsOpen, selectMemoryOpen(store.getState())], [false, false, true]);
    store.getState().setPluginsOpen(true);
    assert.deepEqual([store.getState().pluginsOpen, selectMemoryOpen(store.getState())], [true, false]);
    store.getState().setMemoryOpen(true);
    store.getState().setAuditOpen(true);
    assert.deepEqual([store.getState().auditOpen, selectMemoryOpen(store.getState())], [true, false]);
    store.getState().setMemoryOpen(false);
    assert.equal(store.getState().auditOpen, true, 'closing memory leaves the others as they are');
  });
});
