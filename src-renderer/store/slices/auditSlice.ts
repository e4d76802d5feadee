import type { Params } from '../../../src-shared/bridge/contract.js';
import type { AuditEntryView } from '../../../src-shared/domain/toolLayer.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

/** The audit panel's filters: what `audit/list` takes, less the limit. */
export type AuditFilter = Omit<Params<'audit/list'>, 'limit'>;

export interface AuditSlice {
  auditOpen: boolean;
  auditFilter: AuditFilter;
  /** Newest first, as main lists them. */
  auditEntries: AuditEntryView[];
  /** Every tool id seen in the log so far, sorted: the tool filter's choices survive filtering. */
  auditToolIds: string[];
  auditLoading: boolean;
  auditError: string | null;
  setAuditOpen(open: boolean): void;
  /** Merges into the filter; an `undefined` value clears that filter. */
  setAuditFilter(patch: AuditFilter): void;
  auditRequested(): void;
  auditLoaded(entries: AuditEntryView[]): void;
  auditFailed(message: string): void;
}

function mergeToolIds(known: readonly string[], entries: readonly AuditEntryView[]): string[] {
  const ids = new Set(known);
  const before = ids.size;
  for (const entry of entries) ids.add(entry.toolId);
  return ids.size === before ? (known as string[]) : [...ids].sort();
}

export const createAuditSlice: SliceCreator<AuditSlice> = (set) => ({
  auditOpen: false,
  auditFilter: {},
  auditEntries: [],
  auditToolIds: [],
  auditLoading: false,
  auditError: null,
  // The memory drawer is drawn over this one: opening the audit log closes it.
  setAuditOpen: (auditOpen) =>
    set(auditOpen ? { auditOpen, memoryOpen: false } : { auditOpen }, false, auditOpen ? 'audit/opened' : 'audit/closed'),
  setAuditFilter: (patch) =>
    set(
      (s) => {
        const next: AuditFilter = { ...s.auditFilter, ...patch };
        for (const key of Object.keys(next) as (keyof AuditFilter)[]) if (next[key] === undefined) delete next[key];
        return { auditFilter: next };
      },
      false,
      'audit/filtered',
    ),
  auditRequested: () => set({ auditLoading: true }, false, 'audit/requested'),
  auditLoaded: (entries) =>
    set(
      (s) => ({ auditEntries: entries, auditToolIds: mergeToolIds(s.auditToolIds, entries), auditLoading: false, auditError: null }),
      false,
      'audit/loaded',
    ),
  auditFailed: (auditError) => set({ auditLoading: false, auditError }, false, 'audit/failed'),
});

export const selectAuditOpen = (s: AppState) => s.auditOpen;
export const selectAuditFilter = (s: AppState) => s.auditFilter;
export const selectAuditEntries = (s: AppState) => s.auditEntries;
export const selectAuditToolIds = (s: AppState) => s.auditToolIds;
export const selectAuditLoading = (s: AppState) => s.auditLoading;
export const selectAuditError = (s: AppState) => s.auditError;
