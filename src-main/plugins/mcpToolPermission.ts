import type { PluginToolManifest } from '../../src-shared/plugins/pluginManifest.js';

/**
 * The permission face of a plugin tool once the person's marks are applied (issue #12).
 *
 * An `mcp` tool runs code a third party controls, and MCP annotations (readOnlyHint,
 * openWorldHint…) are that third party's hints: neither they nor the manifest's `safety` /
 * `network` can make it lighter. It counts as at least `write` (a `destructive` manifest stays
 * destructive) and as reaching the network, whatever the manifest says, unless the person
 * marked it read-only in the panel: then it is `read`, and network only when the server is a
 * URL (a stdio server runs on this machine; what it does beyond is its own business, like any
 * command). Other executors keep what plugin.yaml declares; a mark does not apply to them.
 */
export type ToolSafety = PluginToolManifest['safety'];

export interface EffectivePermission {
  safety: ToolSafety;
  network: boolean;
}

export function effectivePermission(
  tool: Pick<PluginToolManifest, 'safety' | 'network' | 'executor'>,
  markedReadOnly: boolean,
): EffectivePermission {
  const ex = tool.executor;
  if (ex.type !== 'mcp') return { safety: tool.safety, network: tool.network };
  if (markedReadOnly) return { safety: 'read', network: ex.url !== undefined };
  return { safety: tool.safety === 'destructive' ? 'destructive' : 'write', network: true };
}
