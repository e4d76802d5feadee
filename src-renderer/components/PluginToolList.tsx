import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';
import { sendPluginChoice } from '../store/sendPluginChoice.js';
import { readOnlyChoiceKey, selectPluginChoicePending } from '../store/slices/pluginsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { offersReadOnlyMark } from './pluginFormat.js';

type Tool = PluginInfo['tools'][number];

/**
 * The tools of one plugin version: title, id, and what the policy reads (safety, risk, network);
 * for MCP tools, the person's "read-only" mark for this version.
 */
export function PluginToolList({ tools, version }: { tools: PluginInfo['tools']; version: string }) {
  const { t } = useTranslation('plugins');
  if (tools.length === 0) return null;
  return (
    <ul className="plugin-tools" aria-label={t('tools')}>
      {tools.map((tool) => (
        <li key={tool.id} className="plugin-tool" data-testid="plugin-tool" data-tool-id={tool.id}>
          <span className="plugin-tool__title">{tool.title}</span>
          <code className="plugin-tool__id">{tool.id}</code>
          <span className={`safety-badge safety-badge--${tool.safety}`} title={t('safetyTitle')}>
            {t(`safety_${tool.safety}`)}
          </span>
          <span className={`risk-badge risk-badge--${tool.riskLevel}`} title={t('riskTitle')}>
            {t(`risk_${tool.riskLevel}`)}
          </span>
          {tool.network && (
            <span className="risk-badge risk-badge--network" title={t('networkTitle')}>
              {t('network')}
            </span>
          )}
          {offersReadOnlyMark(tool) && <ReadOnlyToggle tool={tool} version={version} />}
        </li>
      ))}
    </ul>
  );
}

/** "Read-only": the person vouches that this MCP tool (this version) changes nothing. */
function ReadOnlyToggle({ tool, version }: { tool: Tool; version: string }) {
  const { t } = useTranslation('plugins');
  const bridge = useBridge();
  const pending = useAppStore(selectPluginChoicePending);
  const marked = tool.readOnlyMark === true;
  return (
    <label className="plugin-tool__readonly" title={t('readOnlyTitle')}>
      <input
        type="checkbox"
        data-testid="plugin-tool-readonly"
        checked={marked}
        disabled={pending !== null}
        aria-busy={pending === readOnlyChoiceKey(tool.id, version)}
        onChange={(e) =>
          void sendPluginChoice(bridge, appStore, { kind: 'read-only', toolId: tool.id, version, readOnly: e.currentTarget.checked })
        }
      />
      {t('readOnly')}
    </label>
  );
}
