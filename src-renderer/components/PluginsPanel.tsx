import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { appStore } from '../store/appStore.js';
import {
  selectPluginChoiceError,
  selectPlugins,
  selectPluginsError,
  selectPluginsLoaded,
  selectPluginsOpen,
} from '../store/slices/pluginsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { pluginCountLabel } from './pluginFormat.js';
import { PluginItem } from './PluginItem.js';
import './AuditPanel.css';
import './PluginsPanel.css';

const close = () => appStore.getState().setPluginsOpen(false);

function PluginsDrawer() {
  const { t } = useTranslation('plugins');
  const plugins = useAppStore(selectPlugins);
  const loaded = useAppStore(selectPluginsLoaded);
  const error = useAppStore(selectPluginsError);
  const choiceError = useAppStore(selectPluginChoiceError);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
  }

  return (
    <aside className="plugins-panel" data-testid="plugins-panel" aria-label={t('plugins')} onKeyDown={onKeyDown}>
      <header className="plugins-panel__head">
        <h2>{t('plugins')}</h2>
        <span className="plugins-panel__count">{loaded ? pluginCountLabel(plugins) : t('loading')}</span>
        <button type="button" className="icon-btn" data-testid="plugins-close" aria-label={t('closePanel')} onClick={close}>
          ×
        </button>
      </header>
      {error && (
        <div className="plugins-panel__error" role="alert">
          {t('loadError', { error })}
        </div>
      )}
      {choiceError && (
        <div className="plugins-panel__error" role="alert" data-testid="plugin-choice-error">
          {t('choiceError', { error: choiceError })}
        </div>
      )}
      <div className="plugins-panel__scroll">
        {loaded && plugins.length === 0 ? (
          <p className="plugins-panel__empty">{t('none')}</p>
        ) : (
          <ul className="plugins-panel__list">
            {plugins.map((plugin) => (
              <PluginItem key={`${plugin.origin}:${plugin.dir}`} plugin={plugin} />
            ))}
          </ul>
        )}
      </div>
    </aside>
  );
}

/**
 * Every plugin version main found, available or not, kept current as folders change. A drawer
 * over the map and chat, like the audit log; mounted only while open.
 */
export function PluginsPanel() {
  const open = useAppStore(selectPluginsOpen);
  return open ? <PluginsDrawer /> : null;
}

/** The status bar's toggle for the panel. */
export function PluginsOpenButton() {
  const { t } = useTranslation('plugins');
  const open = useAppStore(selectPluginsOpen);
  return (
    <button
      type="button"
      className={`status-bar__item status-bar__button${open ? ' status-bar__button--on' : ''}`}
      data-testid="open-plugins"
      aria-pressed={open}
      title={t('openTitle')}
      onClick={() => appStore.getState().setPluginsOpen(!open)}
    >
      {t('plugins')}
    </button>
  );
}
