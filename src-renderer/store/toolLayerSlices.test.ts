import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEntryView } from '../../src-shared/domain/toolLayer.js';
import { createAppStore } from './appStore.js';
import { selectPlanTargetId } from './slices/policySlice.js';
import { progressPercent, selectCallProgress, selectLatestProgress } from './slices/progressSlice.js';
import { testMessage } from './testing/chatFixtures.js';

const audit = (id: number, toolId: string): AuditEntryView => ({
  id,
  at: '2025-01-01T00:00:00Z',
  conversationId: null,
  runId: null,
  caller: 'model',
  toolId,
  toolVersion: '1.0.0',
  definitionHash: null,
  args: {},
  decision: 'approved',
  decidedBy: 'user',
  outcome: 'ok',
  errorCode: null,
  durationMs: 5,
});

describe('progress slice', () => {
  it('keeps the latest report per call and shows the freshest call', () => {
    const store = createAppStore();
    store.getState().reportProgress({ callId: 'a', fraction: 0.1, message: 'reading' });
    store.getState().reportProgress({ callId: 'b', fraction: 0.5, message: 'warping' });
    store.getState().reportProgress({ callId: 'a', fraction: 0.4, message: 'writing' });
    assert.equal(selectCallProgress('a')(store.getState())?.message, 'writing');
    assert.equal(selectLatestProgress(store.getState())?.callId, 'a');
    store.getState().clearProgress('a');
    assert.equal(selectCallProgress('a')(store.getState()), null);
    assert.equal(selectLatestProgress(store.getState())?.callId, 'b');
    store.getState().clearProgress();
    assert.equal(selectLatestProgress(store.getState()), null);
  });

  it('leaves the state alone when there is nothing to clear', () => {
    const store = createAppStore();
    const before = store.getState();
    store.getState().clearProgress('nope');
    store.getState().clearProgress();
    assert.equal(store.getState(), before);
  });

  it('turns fractions into whole percentages within 0-100', () => {
    assert.deepEqual([0, 0.004, 0.456, 1, 1.7, -0.2, Number.NaN].map(progressPercent), [0, 0, 46, 100, 100, 0, 0]);
  });
});

describe('policy slice', () => {
  it('starts in Ask, not loaded, and takes main’s state', () => {
    const store = createAppStore();
    assert.equal(store.getState().policy.mode, 'ask');
    assert.equal(store.getState().policyLoaded, false);
    store.getState().applyPolicySnapshot({
      policy: { mode: 'auto', askForReads: true, grants: ['layers.remove'] },
      undo: { undo: { summary: 'Remove rivers', toolId: 'layers.remove' }, revertTurn: { changes: 2 } },
    });
    assert.equal(store.getState().policy.mode, 'auto');
    assert.equal(store.getState().policyLoaded, true);
    assert.equal(store.getState().undo.revertTurn?.changes, 2);
    store.getState().setUndo({ undo: null, revertTurn: null });
    assert.equal(store.getState().undo.undo, null);
  });

  it('offers "Run this plan" on the latest answer, in Plan mode, once the run is idle', () => {
    const store = createAppStore();
    store
      .getState()
      .setMessages([
        testMessage('u1', 1, 'u1', 'user'),
        testMessage('a1', 2, 'Plan: 1. buffer 2. clip'),
        testMessage('t1', 3, 't1', 'notice'),
      ]);
    assert.equal(selectPlanTargetId(store.getState()), null, 'Ask mode');
    store.getState().setPolicy({ mode: 'plan', askForReads: false, grants: [] });
    assert.equal(selectPlanTargetId(store.getState()), 'a1');
    store.getState().setRun({ runId: 'r', status: 'running' });
    assert.equal(selectPlanTargetId(store.getState()), null, 'run live');
    store.getState().setRun({ runId: null, status: 'idle' });
    store.getState().upsertMessage(testMessage('u2', 4, 'u2', 'user'));
    assert.equal(selectPlanTargetId(store.getState()), null, 'not yet answered');
  });
});

describe('audit slice', () => {
  it('merges filters, dropping cleared ones', () => {
    const store = createAppStore();
    store.getState().setAuditFilter({ toolId: 'layers.move', caller: 'model' });
    store.getState().setAuditFilter({ caller: undefined, outcome: 'error' });
    assert.deepEqual(store.getState().auditFilter, { toolId: 'layers.move', outcome: 'error' });
  });

  it('remembers every tool id seen, so filtering does not shrink the choices', () => {
    const store = createAppStore();
    store.getState().auditRequested();
    assert.equal(store.getState().auditLoading, true);
    store.getState().auditLoaded([audit(2, 'layers.move'), audit(1, 'layers.load')]);
    store.getState().auditLoaded([audit(2, 'layers.move')]);
    assert.deepEqual(store.getState().auditToolIds, ['layers.load', 'layers.move']);
    assert.equal(store.getState().auditEntries.length, 1);
    store.getState().auditFailed('socket closed');
    assert.equal(store.getState().auditError, 'socket closed');
    assert.equal(store.getState().auditLoading, false);
  });
});
