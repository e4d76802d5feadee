import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';

const ORIGIN_LABELS: Record<PluginInfo['origin'], string> = {
  'built-in': 'built-in',
  user: 'your plugins folder',
  project: "this project's plugins folder",
};

/** Where a plugin came from, in words. */
export function originLabel(origin: PluginInfo['origin']): string {
  return ORIGIN_LABELS[origin];
}

/** The panel's count line: "3 plugins, 1 unavailable". */
export function pluginCountLabel(plugins: readonly PluginInfo[]): string {
  const unavailable = plugins.filter((p) => p.state === 'unavailable').length;
  const total = `${plugins.length} plugin${plugins.length === 1 ? '' : 's'}`;
  return unavailable ? `${total}, ${unavailable} unavailable` : total;
}

/** Only MCP tools can be marked read-only: their server, not the manifest, decides what they do. */
export function offersReadOnlyMark(tool: PluginInfo['tools'][number]): boolean {
  return tool.executor === 'mcp';
}

/** The enable switch's words. */
export function enabledLabel(plugin: Pick<PluginInfo, 'enabled'>): string {
  return plugin.enabled ? 'On in this project' : 'Off in this project: its tools are not offered';
}
