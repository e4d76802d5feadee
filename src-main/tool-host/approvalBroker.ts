import { randomUUID } from 'node:crypto';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';

export type Decision = { decision: 'approve' | 'reject'; remember: boolean; by: 'user' | 'system'; reason?: string };

/** Approvals kept beyond the session (the project's plugin origin grants). */
export interface DurableGrants {
  has(toolId: string, definitionHash: string): boolean;
  add(toolId: string, definitionHash: string): void;
}

interface Pending {
  request: ApprovalRequest;
  resolve(decision: Decision): void;
}

/**
 * Approvals as state (STYLE item 6): a pending request is kept here and announced; the
 * renderer answers with `tools/decide`. Anything that is not an explicit approval — the
 * dialog closed, the page reloaded, the run stopped — resolves it as a rejection.
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  /**
   * Tools the person allowed for this session ("allow this tool for this session"), with the
   * definition hash they saw: a changed definition is a different tool and asks again.
   */
  private readonly grants = new Map<string, string>();
  /** Whether a window is there to show a dialog; unknown (always yes) until a host says. */
  private presence: () => boolean = () => true;

  constructor(
    private readonly announce: (request: ApprovalRequest) => void,
    private readonly resolved: (id: string, d: Decision) => void,
    /**
     * Where an approved endpoint outlives the session: a network tool whose origins are its own
     * declaration (a plugin's endpoint) is approved once per tool version and definition —
     * kept in the project, so a restart does not ask again, and a new version does.
     */
    private readonly durable?: DurableGrants,
  ) {}

  /**
   * Tells the broker how to know whether any renderer is connected. With none, nobody can
   * answer a dialog: the dispatcher refuses a call that would ask instead of leaving it pending.
   */
  setPresence(anyWindow: () => boolean): void {
    this.presence = anyWindow;
  }

  /** Whether a dialog asked now could be answered: some window is connected. */
  canAsk(): boolean {
    return this.presence();
  }

  isGranted(toolId: string, definitionHash: string): boolean {
    return this.grants.get(toolId) === definitionHash || (this.durable?.has(toolId, definitionHash) ?? false);
  }

  grantedToolIds(): string[] {
    return [...this.grants.keys()];
  }

  request(input: Omit<ApprovalRequest, 'id'>, definitionHash: string, signal: AbortSignal): Promise<Decision> {
    const request: ApprovalRequest = { ...input, id: randomUUID() };
    return new Promise<Decision>((resolve) => {
      const finish = (d: Decision) => {
        if (!this.pending.delete(request.id)) return;
        signal.removeEventListener('abort', onAbort);
        if (d.decision === 'approve' && d.remember && request.rememberable) {
          this.grants.set(request.toolId, definitionHash);
          // Only a declared endpoint is rememberable among network calls (approvalPolicy.ts).
          if (request.network?.length) this.durable?.add(request.toolId, definitionHash);
        }
        this.resolved(request.id, d);
        resolve(d);
      };
      const onAbort = () => finish({ decision: 'reject', remember: false, by: 'system', reason: 'stopped' });
      this.pending.set(request.id, { request, resolve: finish });
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      else this.announce(request);
    });
  }

  /** The person's answer. Returns false for an unknown or already decided request. */
  decide(id: string, decision: 'approve' | 'reject', remember: boolean): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.resolve({ decision, remember, by: 'user' });
    return true;
  }

  /** Every renderer went away (closed or reloaded): nobody can approve, so nothing is approved. */
  rejectAll(reason: string): void {
    for (const p of [...this.pending.values()]) p.resolve({ decision: 'reject', remember: false, by: 'system', reason });
  }

  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }
}
