import { capabilityValues } from '../../src-shared/security/paramCapabilities.js';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import { toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import { datasetReferences } from '../security/datasetReferences.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';

/** What a call will reach, read from its declared source and SQL parameters. */
export interface CallCapabilities {
  /** Origins (`scheme://host:port`) the call's network sources name; non-empty makes it a network call. */
  networkOrigins: string[];
  /** The call carries a path or SQL text (a GUI call with either is asked like the model's). */
  carriesPathOrSql: boolean;
}

/** Answers whether a path is one of the app's own files (`PrivatePaths`). */
export interface PrivatePathCheck {
  isPrivate(path: string): boolean;
}

/**
 * Classifies every source the arguments name (DESIGN §5): refused forms and the app's own
 * files end the call with an error the model can act on; network sources make it a network
 * call, which the policy always asks for and the egress gate lets through only while it runs.
 */
export function assessCall(def: ToolDefinition, args: unknown, privatePaths: PrivatePathCheck): { ok: true; caps: CallCapabilities } | { ok: false; error: ToolResult } {
  const { sources, sql } = capabilityValues(def.input, args);
  const origins = new Set<string>();
  for (const source of sources) {
    const problem = judge(source, source, 0, privatePaths, origins);
    if (problem) return { ok: false, error: problem.error(def.id) };
  }
  return { ok: true, caps: { networkOrigins: [...origins], carriesPathOrSql: sources.length + sql.length > 0 } };
}

interface Problem {
  error(toolId: string): ToolResult;
}

/**
 * One source, and the sources a local dataset file names inside itself (a VRT reading a URL
 * makes the call a network call; a VRT reading the app's files is refused like the files).
 */
function judge(source: string, named: string, depth: number, privatePaths: PrivatePathCheck, origins: Set<string>): Problem | null {
  const via = source === named ? '' : ` (named inside '${clip(named)}')`;
  const c = classifySource(source);
  if (c.kind === 'refused') return { error: (id) => toolError('invalid_params', `${id} cannot open '${clip(source)}'${via}: ${c.reason}.`, true) };
  if (c.kind === 'local' || c.kind === 'archive') {
    if (privatePaths.isPrivate(c.path)) {
      return {
        error: () =>
          toolError('not_allowed', `'${clip(source)}'${via} is inside Mapwright's own data folder (settings, keys, the project database); no tool may open it.`, false, 'Give the path of a data file outside the Mapwright data folder; outputs of earlier tools are project layers already.'),
      };
    }
    if (c.kind === 'local' && depth < MAX_DEPTH) {
      for (const ref of datasetReferences(c.path).sources) {
        const inner = judge(ref, source, depth + 1, privatePaths, origins);
        if (inner) return inner;
      }
    }
    return null;
  }
  if (!c.origin || !/^https?:/.test(c.origin)) {
    return {
      error: () => toolError('not_allowed', `'${clip(source)}'${via} is a network source Mapwright cannot let through: only http(s) URLs can be approved; database connection strings and cloud stores are not supported.`, false),
    };
  }
  origins.add(c.origin);
  return null;
}

const MAX_DEPTH = 4;

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
