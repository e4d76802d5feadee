import type { ApprovalRequest } from '../../../src-shared/domain/chat.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

export interface ApprovalsSlice {
  /** Oldest first; the dialog shows the head of the queue. */
  pendingApprovals: ApprovalRequest[];
  enqueueApproval(request: ApprovalRequest): void;
  /** Drops a request once decided (here or elsewhere: another window, a time-out in main). */
  resolveApproval(approvalId: string): void;
}

export const createApprovalsSlice: SliceCreator<ApprovalsSlice> = (set) => ({
  pendingApprovals: [],
  enqueueApproval: (request) =>
    set(
      (s) => ({
        pendingApprovals: s.pendingApprovals.some((a) => a.id === request.id)
          ? s.pendingApprovals.map((a) => (a.id === request.id ? request : a))
          : [...s.pendingApprovals, request],
      }),
      false,
      'approvals/requested',
    ),
  resolveApproval: (approvalId) =>
    set((s) => ({ pendingApprovals: s.pendingApprovals.filter((a) => a.id !== approvalId) }), false, 'approvals/resolved'),
});

export const selectCurrentApproval = (s: AppState) => s.pendingApprovals[0] ?? null;
export const selectPendingApprovalCount = (s: AppState) => s.pendingApprovals.length;
