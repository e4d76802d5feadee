import type { RunState } from '../../../src-shared/domain/chat.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

export interface RunSlice {
  run: RunState;
  setRun(run: RunState): void;
}

export const createRunSlice: SliceCreator<RunSlice> = (set) => ({
  run: { runId: null, status: 'idle' },
  setRun: (run) => set({ run }, false, 'run/changed'),
});

export const selectRunStatus = (s: AppState) => s.run.status;
/** A run is live while it works or waits for the person: Stop applies to both. */
export const selectRunLive = (s: AppState) => s.run.status !== 'idle';
