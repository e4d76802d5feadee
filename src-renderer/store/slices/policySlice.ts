import type { Result } from '../../../src-shared/bridge/contract.js';
import type { PolicyState, UndoState } from '../../../src-shared/domain/toolLayer.js';
import { lastAssistantAnswerId } from '../../lib/lastAssistantAnswer.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

/**
 * Main's approval policy and undo state, mirrored for the mode selector and the undo buttons.
 * Main owns both: the renderer changes them only through commands (`commands.set_mode`, …).
 */
export interface PolicySlice {
  policy: PolicyState;
  /** False until the first `policy/get` answers: the controls wait for the real values. */
  policyLoaded: boolean;
  undo: UndoState;
  setPolicy(policy: PolicyState): void;
  setUndo(undo: UndoState): void;
  /** The `policy/get` answer: at start-up and after a reconnect. */
  applyPolicySnapshot(snapshot: Result<'policy/get'>): void;
}

export const createPolicySlice: SliceCreator<PolicySlice> = (set) => ({
  policy: { mode: 'ask', askForReads: false, grants: [] },
  policyLoaded: false,
  undo: { undo: null, revertTurn: null },
  setPolicy: (policy) => set({ policy, policyLoaded: true }, false, 'policy/changed'),
  setUndo: (undo) => set({ undo }, false, 'undo/changed'),
  applyPolicySnapshot: ({ policy, undo }) => set({ policy, undo, policyLoaded: true }, false, 'policy/loaded'),
});

export const selectMode = (s: AppState) => s.policy.mode;
export const selectAskForReads = (s: AppState) => s.policy.askForReads;
export const selectPolicyLoaded = (s: AppState) => s.policyLoaded;
/** What "Undo" would undo, or null. */
export const selectUndoLast = (s: AppState) => s.undo.undo;
/** What "Revert this turn" would revert, or null. */
export const selectRevertTurn = (s: AppState) => s.undo.revertTurn;

/**
 * The message that gets "Run this plan": in Plan mode, once the run is idle, the assistant's
 * answer to the latest request. Null otherwise (cheap while a run streams).
 */
export function selectPlanTargetId(s: AppState): string | null {
  if (s.policy.mode !== 'plan' || s.run.status !== 'idle') return null;
  return lastAssistantAnswerId(s.messageIds, s.messagesById);
}
