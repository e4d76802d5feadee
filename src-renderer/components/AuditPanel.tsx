import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { appStore } from '../store/appStore.js';
import { selectAuditEntries, selectAuditError, selectAuditLoading, selectAuditOpen } from '../store/slices/auditSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { AuditFilters } from './AuditFilters.js';
import { AuditRow } from './AuditRow.js';
import { useAuditLog } from './useAuditLog.js';
import './AuditPanel.css';

const close = () => appStore.getState().setAuditOpen(false);

function AuditDrawer() {
  const { t } = useTranslation('audit');
  const refresh = useAuditLog();
  const entries = useAppStore(selectAuditEntries);
  const loading = useAppStore(selectAuditLoading);
  const error = useAppStore(selectAuditError);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
  }

  return (
    <aside className="audit-panel" data-testid="audit-panel" aria-label={t('auditLog')} onKeyDown={onKeyDown}>
      <header className="audit-panel__head">
        <h2>{t('auditLog')}</h2>
        <span className="audit-panel__count">{loading ? t('loading') : t('calls', { count: entries.length })}</span>
        <button type="button" className="btn btn--small" data-testid="audit-refresh" onClick={refresh}>
          {t('refresh')}
        </button>
        <button type="button" className="icon-btn" data-testid="audit-close" aria-label={t('closeLog')} onClick={close}>
          ×
        </button>
      </header>
      <AuditFilters />
      {error && (
        <div className="audit-panel__error" role="alert">
          {t('loadError', { error })}
        </div>
      )}
      <div className="audit-panel__scroll">
        {entries.length === 0 && !loading ? (
          <p className="audit-panel__empty">{t('noCalls')}</p>
        ) : (
          <table className="audit-table">
            <thead>
              <tr>
                <th>{t('time')}</th>
                <th>{t('caller')}</th>
                <th>{t('tool')}</th>
                <th>{t('decision')}</th>
                <th>{t('outcome')}</th>
                <th>{t('took')}</th>
                <th aria-label={t('arguments')} />
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </aside>
  );
}

/**
 * Every call through the dispatcher, newest first: who called, who decided, how it ended.
 * A drawer over the map and chat, mounted only while open so it fetches only then.
 */
export function AuditPanel() {
  const open = useAppStore(selectAuditOpen);
  return open ? <AuditDrawer /> : null;
}

/** The status bar's toggle for the panel. */
export function AuditOpenButton() {
  const { t } = useTranslation('audit');
  const open = useAppStore(selectAuditOpen);
  return (
    <button
      type="button"
      className={`status-bar__item status-bar__button${open ? ' status-bar__button--on' : ''}`}
      data-testid="audit-open"
      aria-pressed={open}
      title={t('openTitle')}
      onClick={() => appStore.getState().setAuditOpen(!open)}
    >
      {t('auditLog')}
    </button>
  );
}
