import type { EventPayload } from '../../../src-shared/bridge/contract.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

export interface CallProgress {
  callId: string;
  /** 0…1 as the tool reported it (clamped when shown). */
  fraction: number;
  message: string;
  /** Order of arrival across calls: the status bar shows the freshest. */
  seq: number;
}

/** Progress of running tool calls, by the model's call id (the tool card's `callId`). */
export interface ProgressSlice {
  progressByCallId: Record<string, CallProgress>;
  progressSeq: number;
  reportProgress(event: EventPayload<'tool/progress'>): void;
  /** Forgets one call's progress (its card finished), or every call's when no id is given. */
  clearProgress(callId?: string): void;
}

export const createProgressSlice: SliceCreator<ProgressSlice> = (set) => ({
  progressByCallId: {},
  progressSeq: 0,
  reportProgress: ({ callId, fraction, message }) =>
    set(
      (s) => {
        const seq = s.progressSeq + 1;
        return { progressSeq: seq, progressByCallId: { ...s.progressByCallId, [callId]: { callId, fraction, message, seq } } };
      },
      false,
      'progress/reported',
    ),
  clearProgress: (callId) =>
    set(
      (s) => {
        if (callId === undefined) return Object.keys(s.progressByCallId).length ? { progressByCallId: {} } : s;
        if (!(callId in s.progressByCallId)) return s;
        const { [callId]: _done, ...rest } = s.progressByCallId;
        return { progressByCallId: rest };
      },
      false,
      'progress/cleared',
    ),
});

/** A fraction as a whole percentage for a progress bar: clamped to 0…100, NaN as 0. */
export function progressPercent(fraction: number): number {
  if (!Number.isFinite(fraction)) return 0;
  return Math.round(Math.min(1, Math.max(0, fraction)) * 100);
}

export const selectCallProgress = (callId: string) => (s: AppState) => s.progressByCallId[callId] ?? null;

/** The most recently reported call still in progress, for the status bar. */
export function selectLatestProgress(s: AppState): CallProgress | null {
  let latest: CallProgress | null = null;
  for (const p of Object.values(s.progressByCallId)) if (!latest || p.seq > latest.seq) latest = p;
  return latest;
}
