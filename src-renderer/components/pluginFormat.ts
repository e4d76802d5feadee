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

/** The checks before a plugin is offered, in words: "passed: 7 self-test cases, 1 endpoint answered". */
export function checksLabel(checks: PluginInfo['checks']): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const what = [
    ...(checks.selfTestCases ? [plural(checks.selfTestCases, 'self-test case')] : []),
    ...(checks.endpoints ? [`${plural(checks.endpoints, 'endpoint')} probed`] : []),
  ];
  const of = what.length ? what.join(', ') : 'no self-tests, no endpoints';
  switch (checks.state) {
    case 'running':
      return `running: ${of}`;
    case 'passed':
      return `passed: ${of}`;
    case 'failed':
      return `failed (see below): ${of}`;
    default:
      return 'not run: the plugin cannot be checked as it is';
  }
}
