import type { KeyboardEvent } from 'react';
import { appStore } from '../store/appStore.js';
import { selectAuditEntries, selectAuditError, selectAuditLoading, selectAuditOpen } from '../store/slices/auditSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { AuditFilters } from './AuditFilters.js';
import { AuditRow } from './AuditRow.js';
import { useAuditLog } from './useAuditLog.js';
import './AuditPanel.css';

const close = () => appStore.getState().setAuditOpen(false);

function AuditDrawer() {
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
    <aside className="audit-panel" data-testid="audit-panel" aria-label="Audit log" onKeyDown={onKeyDown}>
      <header className="audit-panel__head">
        <h2>Audit log</h2>
        <span className="audit-panel__count">{loading ? 'Loading…' : `${entries.length} call${entries.length === 1 ? '' : 's'}`}</span>
        <button type="button" className="btn btn--small" data-testid="audit-refresh" onClick={refresh}>
          Refresh
        </button>
        <button type="button" className="icon-btn" data-testid="audit-close" aria-label="Close the audit log" onClick={close}>
          ×
        </button>
      </header>
      <AuditFilters />
      {error && (
        <div className="audit-panel__error" role="alert">
          Could not load the audit log: {error}
        </div>
      )}
      <div className="audit-panel__scroll">
        {entries.length === 0 && !loading ? (
          <p className="audit-panel__empty">No calls match.</p>
        ) : (
          <table className="audit-table">
            <thead>
              <tr>
                <th>Time</th>
                <th>Caller</th>
                <th>Tool</th>
                <th>Decision</th>
                <th>Outcome</th>
                <th>Took</th>
                <th aria-label="Arguments" />
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
  const open = useAppStore(selectAuditOpen);
  return (
    <button
      type="button"
      className={`status-bar__item status-bar__button${open ? ' status-bar__button--on' : ''}`}
      data-testid="audit-open"
      aria-pressed={open}
      title="Every tool call: who asked, who approved, how it ended"
      onClick={() => appStore.getState().setAuditOpen(!open)}
    >
      Audit log
    </button>
  );
}
