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
  /** Origins this call's sources reach (source classification): non-empty makes it a network call. */
  networkOrigins?: readonly string[];
  /** A GUI call carrying a path or SQL text the person did not pick in a native dialog. */
  unverifiedGuiInput?: boolean;
  /**
   * Origins the person already approved for this project's map sources (network_origin_grants,
   * src-main/web/webSourceTools.ts). A call whose every origin is among them is not asked again
   * for the network part: it follows the policy of its safety (a write still asks in Ask mode).
   */
  grantedOrigins?: ReadonlySet<string>;
}

/**
 * Who must say yes before a call runs. Risk comes from the tool's declaration, never from
 * the model (DESIGN §4): read runs at once (unless reads ask); write asks, unless granted for
 * the session or in Auto mode; destructive, `critical` and network calls always ask and are never
 * remembered — except a network tool whose origins are its own declaration (a plugin's
 * endpoint), which may be approved once for the tool's version — a call is network when the tool says so or when a source it names is (read
 * tools included), and Plan mode refuses it. The person's own GUI actions are their approval,
 * except destructive ones and those carrying a path or SQL text from the renderer, which is
 * trusted less than main.
 *
 * An outside MCP client (`client`) is treated exactly as the model: user-only tools and, in
 * Plan mode, changes and network calls are refused; writes ask unless granted or in Auto. It
 * shares the session's grants: "allow this tool for this session" is the person's word about a
 * tool (its definition), whoever asks next, and every dialog names the client that asks.
 */
export function decideApproval({
  def,
  caller,
  mode,
  askForReads,
  granted,
  networkOrigins = [],
  unverifiedGuiInput = false,
  grantedOrigins,
}: PolicyInput): PolicyDecision {
  const network = def.network === true || networkOrigins.length > 0;
  // Issue #13: origins remembered for this project. Only sources named in the arguments are
  // covered; a tool that declares itself network (or its own origins) is judged as before.
  const networkGranted = originsGranted(def, networkOrigins, grantedOrigins);
  const automated = caller !== 'user';
  if (automated && def.caller === 'user_only') {
    return { kind: 'refuse', message: `${def.id} can only be run by the person, from the interface.` };
  }
  if (automated && mode === 'plan' && def.safety !== 'read') {
    return {
      kind: 'refuse',
      message: `Plan mode: ${def.id} changes the project, so it is not run now. Describe it as a step of your plan instead.`,
    };
  }
  if (automated && mode === 'plan' && network) {
    return {
      kind: 'refuse',
      message: `Plan mode: ${def.id} would reach the network (${networkOrigins.join(', ') || 'a network tool'}), so it is not run now. Describe it as a step of your plan instead.`,
    };
  }
  if (def.safety === 'destructive' || def.riskLevel === 'critical') return { kind: 'ask', rememberable: false };
  if (network && !networkGranted) {
    // Only origins the tool version itself declares can be approved once (a plugin endpoint);
    // a source named in the arguments is asked for every time.
    const declaredOnly = (def.origins?.length ?? 0) > 0 && networkOrigins.length === 0;
    if (!declaredOnly) return { kind: 'ask', rememberable: false };
    return granted ? { kind: 'run', decision: 'granted' } : { kind: 'ask', rememberable: true };
  }
  if (caller === 'user') return unverifiedGuiInput ? { kind: 'ask', rememberable: false } : { kind: 'run', decision: 'user_action' };
  if (def.safety === 'read') return askForReads ? { kind: 'ask', rememberable: true } : { kind: 'run', decision: 'not_needed' };
  if (granted) return { kind: 'run', decision: 'granted' };
  if (mode === 'auto') return { kind: 'run', decision: 'auto' };
  return { kind: 'ask', rememberable: true };
}

/**
 * Whether every network origin a call names was already approved for this project (a map
 * source's origin): only sources named in the arguments count; a tool that declares itself
 * network, or declares its own origins, is judged as before.
 */
export function originsGranted(
  def: Pick<PolicyInput['def'], 'network' | 'origins'>,
  networkOrigins: readonly string[],
  grantedOrigins: ReadonlySet<string> | undefined,
): boolean {
  return (
    def.network !== true &&
    !(def.origins?.length ?? 0) &&
    networkOrigins.length > 0 &&
    grantedOrigins !== undefined &&
    networkOrigins.every((o) => grantedOrigins.has(o))
  );
}
