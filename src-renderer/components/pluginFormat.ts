import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import { i18n } from '../i18n/i18n.js';

/** Where a plugin came from, in words. */
export function originLabel(origin: PluginInfo['origin']): string {
  return i18n.t(`plugins:origin_${origin === 'built-in' ? 'builtin' : origin}`);
}

/** The panel's count line: "3 plugins, 1 unavailable". */
export function pluginCountLabel(plugins: readonly PluginInfo[]): string {
  const unavailable = plugins.filter((p) => p.state === 'unavailable').length;
  return unavailable
    ? i18n.t('plugins:countUnavailable', { count: plugins.length, unavailable })
    : i18n.t('plugins:count', { count: plugins.length });
}

/** Only MCP tools can be marked read-only: their server, not the manifest, decides what they do. */
export function offersReadOnlyMark(tool: PluginInfo['tools'][number]): boolean {
  return tool.executor === 'mcp';
}

/** The enable switch's words. */
export function enabledLabel(plugin: Pick<PluginInfo, 'enabled'>): string {
  return plugin.enabled ? i18n.t('plugins:enabledOn') : i18n.t('plugins:enabledOff');
}

/** The checks before a plugin is offered, in words: "passed: 7 self-test cases, 1 endpoint answered". */
export function checksLabel(checks: PluginInfo['checks']): string {
  // A list of counts (joined with a comma), not pieces of one sentence.
  const what = [
    ...(checks.selfTestCases ? [i18n.t('plugins:selfTestCases', { count: checks.selfTestCases })] : []),
    ...(checks.endpoints ? [i18n.t('plugins:endpoints', { count: checks.endpoints })] : []),
  ];
  const of = what.length ? what.join(i18n.language === 'zh-CN' ? '，' : ', ') : i18n.t('plugins:checkedNothing');
  switch (checks.state) {
    case 'running':
    case 'passed':
    case 'failed':
      return i18n.t(`plugins:checks_${checks.state}`, { what: of });
    default:
      return i18n.t('plugins:checks_none');
  }
}
