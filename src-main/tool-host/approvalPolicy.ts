import type { ApprovalMode } from '../../src-shared/domain/toolLayer.js';
import type { Caller, ToolDefinition } from '../../src-shared/tools/toolSdk.js';

export type PolicyDecision =
  | { kind: 'run'; decision: 'not_needed' | 'granted' | 'auto' | 'user_action' }
  | { kind: 'ask'; rememberable: boolean }
  | { kind: 'refuse'; message: string };

export interface PolicyInput {
  def: ToolDefinition;
  caller: Caller;
  mode: ApprovalMode;
  askForReads: boolean;
  granted: boolean;
}

/**
 * Who must say yes before a call runs. Risk comes from the tool's declaration, never from
 * the model (DESIGN §4): read runs at once (unless reads ask); write asks, unless granted for
 * the session or in Auto mode; destructive and network calls always ask and are never
 * remembered. The person's own GUI actions are their approval, except destructive ones.
 */
export function decideApproval({ def, caller, mode, askForReads, granted }: PolicyInput): PolicyDecision {
  if (caller === 'model' && def.caller === 'user_only') {
    return { kind: 'refuse', message: `${def.id} can only be run by the person, from the interface.` };
  }
  if (caller === 'model' && mode === 'plan' && def.safety !== 'read') {
    return { kind: 'refuse', message: `Plan mode: ${def.id} changes the project, so it is not run now. Describe it as a step of your plan instead.` };
  }
  if (def.safety === 'destructive' || def.network) return { kind: 'ask', rememberable: false };
  if (caller === 'user') return { kind: 'run', decision: 'user_action' };
  if (def.safety === 'read') return askForReads ? { kind: 'ask', rememberable: true } : { kind: 'run', decision: 'not_needed' };
  if (granted) return { kind: 'run', decision: 'granted' };
  if (mode === 'auto') return { kind: 'run', decision: 'auto' };
  return { kind: 'ask', rememberable: true };
}
