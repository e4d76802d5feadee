import { capabilityValues } from '../../src-shared/security/paramCapabilities.js';
import { toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { inspectSource, type PrivatePathCheck } from '../security/sourceInspection.js';

export type { PrivatePathCheck } from '../security/sourceInspection.js';

/** What a call will reach, read from its declared source and SQL parameters. */
export interface CallCapabilities {
  /** Origins (`scheme://host:port`) the call's network sources name; non-empty makes it a network call. */
  networkOrigins: string[];
  /** The call carries a path or SQL text (a GUI call with either is asked like the model's). */
  carriesPathOrSql: boolean;
}

/**
 * Judges every source the arguments name (DESIGN §5, `inspectSource`): refused forms and the
 * app's own files end the call with an error the model can act on; network sources make it a
 * network call, which the policy always asks for and the egress gate lets through only while
 * it runs.
 */
export function assessCall(
  def: ToolDefinition,
  args: unknown,
  privatePaths: PrivatePathCheck,
): { ok: true; caps: CallCapabilities } | { ok: false; error: ToolResult } {
  const { sources, sql } = capabilityValues(def.input, args);
  const origins = new Set<string>();
  for (const source of sources) {
    const verdict = inspectSource(source, privatePaths);
    if (!verdict.ok) {
      if (verdict.kind === 'private') {
        return {
          ok: false,
          error: toolError(
            'not_allowed',
            `${verdict.message}.`,
            false,
            'Give the path of a data file outside the Mapwright data folder; outputs of earlier tools are project layers already.',
          ),
        };
      }
      if (verdict.kind === 'unapprovable') return { ok: false, error: toolError('not_allowed', `${verdict.message}.`, false) };
      return { ok: false, error: toolError('invalid_params', `${def.id} ${verdict.message}.`, true) };
    }
    for (const origin of verdict.origins) origins.add(origin);
  }
  return { ok: true, caps: { networkOrigins: [...origins], carriesPathOrSql: sources.length + sql.length > 0 } };
}
