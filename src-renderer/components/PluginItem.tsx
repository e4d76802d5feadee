import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';
import { sendPluginChoice } from '../store/sendPluginChoice.js';
import { enabledChoiceKey, selectPluginChoicePending } from '../store/slices/pluginsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { checksLabel, enabledLabel, originLabel } from './pluginFormat.js';
import { PluginToolList } from './PluginToolList.js';

/**
 * One plugin version: what it is, where it lives, whether it is on in this project, its tools,
 * and why it is unavailable if it is.
 */
export function PluginItem({ plugin }: { plugin: PluginInfo }) {
  const { t } = useTranslation('plugins');
  const bridge = useBridge();
  const pending = useAppStore(selectPluginChoicePending);
  const setEnabled = (enabled: boolean) =>
    void sendPluginChoice(bridge, appStore, { kind: 'enabled', namespace: plugin.namespace, enabled });
  return (
    <li
      className={`plugin-item plugin-item--${plugin.state}${plugin.enabled ? '' : ' plugin-item--off'}`}
      data-testid="plugin-item"
      data-plugin-id={plugin.id}
      data-state={plugin.state}
      data-enabled={String(plugin.enabled)}
    >
      <div className="plugin-item__head">
        <span className="plugin-item__name">{plugin.name || plugin.namespace}</span>
        <span className="plugin-item__version">{plugin.version ? `v${plugin.version}` : t('noVersion')}</span>
        <span className={`plugin-state plugin-state--${plugin.state}`}>{t(`state_${plugin.state}`)}</span>
      </div>
      {plugin.description && <p className="plugin-item__description">{plugin.description}</p>}
      <label className="plugin-item__switch" title={t('switchTitle')}>
        <input
          type="checkbox"
          role="switch"
          data-testid="plugin-enabled"
          aria-checked={plugin.enabled}
          checked={plugin.enabled}
          disabled={pending !== null}
          aria-busy={pending === enabledChoiceKey(plugin.namespace)}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <span>{enabledLabel(plugin)}</span>
      </label>
      <dl className="plugin-item__facts">
        <dt>{t('id')}</dt>
        <dd>
          <code>{plugin.id}</code>
        </dd>
        <dt>{t('version')}</dt>
        <dd data-testid="plugin-version">{plugin.version || t('versionNone')}</dd>
        <dt>{t('from')}</dt>
        <dd>{originLabel(plugin.origin)}</dd>
        <dt>{t('checks')}</dt>
        <dd data-testid="plugin-checks" data-checks={plugin.checks.state}>
          {checksLabel(plugin.checks)}
        </dd>
        <dt>{t('folder')}</dt>
        <dd className="plugin-item__dir" title={plugin.dir} data-testid="plugin-dir">
          <code>{plugin.dir}</code>
        </dd>
      </dl>
      {plugin.sandboxed === false && (
        <p className="plugin-item__unsandboxed" data-testid="plugin-unsandboxed">
          {t('unsandboxed')}
        </p>
      )}
      {plugin.reasons.length > 0 && <PluginReasons reasons={plugin.reasons} />}
      <PluginToolList tools={plugin.tools} version={plugin.version} />
    </li>
  );
}

/** Why a plugin is not offered to the model (its self-test results among them), each line naming its file and culprit. */
function PluginReasons({ reasons }: { reasons: readonly string[] }) {
  const { t } = useTranslation('plugins');
  return (
    <ul className="plugin-item__reasons" data-testid="plugin-reasons" aria-label={t('whyUnavailable')}>
      {reasons.map((reason) => (
        <li key={reason}>{reason}</li>
      ))}
    </ul>
  );
}
