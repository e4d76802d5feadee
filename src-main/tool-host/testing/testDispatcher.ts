import type { ApprovalRequest } from '../../../src-shared/domain/chat.js';
import type { Handles } from '../../../src-shared/tools/handles.js';
import type { ToolDefinition } from '../../../src-shared/tools/toolSdk.js';
import type { NewAuditEntry } from '../../store/auditRepo.js';
import { ApprovalBroker } from '../approvalBroker.js';
import { type DispatcherHooks, ToolDispatcher } from '../toolDispatcher.js';
import { ToolRegistry } from '../toolRegistry.js';

/** A project handle listing no layers: what a tool gets when it declares `project`. */
export const testHandles = { project: { listLayers: () => [] } } as unknown as Handles;

export interface TestDispatcherOptions {
  /**
   * Replace the quiet defaults: Ask mode, nothing audited or snapshotted, a produced layer named
   * by its name (else its path), no private paths, an egress gate that does nothing.
   */
  hooks?: Partial<DispatcherHooks>;
  /** Hears each approval request the broker announces (nobody does by default). */
  announce?: (request: ApprovalRequest) => void;
  /** The handles tools get (default: a project with no layers). */
  handles?: Handles;
}

/**
 * For tests: a dispatcher over `tools` with the test handles and quiet hooks, and the broker
 * and registry it uses, so a test names only the hooks it is about.
 */
export function testDispatcher(
  tools: readonly ToolDefinition[],
  { hooks = {}, announce = () => undefined, handles = testHandles }: TestDispatcherOptions = {},
): { dispatcher: ToolDispatcher; broker: ApprovalBroker; registry: ToolRegistry } {
  const registry = new ToolRegistry(tools);
  const broker = new ApprovalBroker(announce, () => undefined);
  const dispatcher = new ToolDispatcher(registry, handles, broker, {
    policy: () => ({ mode: 'ask', askForReads: false }),
    audit: () => undefined,
    snapshot: () => undefined,
    loadProduced: async (r) => r.name ?? r.path,
    privatePaths: { isPrivate: () => false, mentionedIn: () => false },
    openEgress: () => () => undefined,
    ...hooks,
  });
  return { dispatcher, broker, registry };
}

/** For tests: an audit entry as a row of what a test compares (all but its arguments). */
export const auditRow = (e: NewAuditEntry) => [
  e.toolId,
  e.caller,
  e.toolVersion,
  e.definitionHash,
  e.decision,
  e.decidedBy,
  e.outcome,
  e.errorCode,
  e.durationMs,
  e.runId,
  e.conversationId,
];
