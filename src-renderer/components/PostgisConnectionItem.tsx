import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PgBrowseResult, PgConnectionListed, PgTestReport } from '../../src-shared/domain/pgConnection.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { connectionAddress, testReportLabel } from './postgisFormat.js';
import { PostgisTableList } from './PostgisTableList.js';
import { messageOf } from './usePostgisConnections.js';

type Busy = 'test' | 'browse' | 'delete' | null;

/**
 * One saved connection: its name and address, Test (versions or why not), Edit, Delete (asked
 * first) and Browse (its spatial tables, each with Load). The panel remounts it when the
 * connection changes, so a test or a table list never describes an older version of it.
 */
export function PostgisConnectionItem({
  connection,
  onEdit,
  onDelete,
}: {
  connection: PgConnectionListed;
  onEdit(): void;
  onDelete(): Promise<void>;
}) {
  const { t } = useTranslation(['postgis', 'common']);
  const bridge = useBridge();
  const [busy, setBusy] = useState<Busy>(null);
  const [report, setReport] = useState<PgTestReport | null>(null);
  const [tables, setTables] = useState<PgBrowseResult | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = connection.id;

  async function run(kind: Exclude<Busy, null>, action: () => Promise<void>) {
    setBusy(kind);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  }

  const test = () =>
    run('test', async () => {
      setReport(null);
      setReport(await bridge.call('postgis/test-connection', { id }));
    });
  const browse = () => (tables ? setTables(null) : void run('browse', async () => setTables(await bridge.call('postgis/browse', { id }))));
  const remove = () => run('delete', onDelete);

  return (
    <li className="postgis-item" data-testid="postgis-connection-item" data-connection-id={id} data-name={connection.name}>
      <div className="postgis-item__head">
        <span className="postgis-item__name">{connection.name}</span>
        <span
          className="postgis-item__lock"
          data-testid="postgis-has-password"
          data-value={String(connection.hasPassword)}
          title={connection.hasPassword ? t('hasPassword') : t('noPassword')}
          aria-label={connection.hasPassword ? t('hasPassword') : t('noPassword')}
          role="img"
        >
          {connection.hasPassword && <LockIcon />}
        </span>
      </div>
      <div className="postgis-item__address" title={connectionAddress(connection)}>
        {connectionAddress(connection)}
      </div>
      <div className="postgis-item__actions">
        <button type="button" className="btn btn--small" data-testid="postgis-test" disabled={busy !== null} onClick={() => void test()}>
          {busy === 'test' && <span className="postgis-spinner" aria-hidden="true" />}
          {busy === 'test' ? t('testing') : t('test')}
        </button>
        <button
          type="button"
          className="btn btn--small"
          data-testid="postgis-browse"
          aria-expanded={tables !== null}
          disabled={busy !== null}
          onClick={browse}
        >
          {busy === 'browse' && <span className="postgis-spinner" aria-hidden="true" />}
          {busy === 'browse' ? t('browsing') : tables ? t('hideTables') : t('browse')}
        </button>
        <button type="button" className="btn btn--small" data-testid="postgis-edit" disabled={busy !== null} onClick={onEdit}>
          {t('edit')}
        </button>
        <button
          type="button"
          className="btn btn--small"
          data-testid="postgis-delete"
          disabled={busy !== null || confirming}
          onClick={() => setConfirming(true)}
        >
          {t('delete')}
        </button>
      </div>
      {confirming && (
        <div className="postgis-item__confirm" role="alertdialog" aria-label={t('deleteQuestion', { name: connection.name })}>
          <span>{t('deleteQuestion', { name: connection.name })}</span>
          <button type="button" className="btn btn--small" onClick={() => setConfirming(false)} disabled={busy !== null}>
            {t('cancel', { ns: 'common' })}
          </button>
          <button
            type="button"
            className="btn btn--small btn--danger"
            data-testid="postgis-delete-confirm"
            disabled={busy !== null}
            onClick={() => void remove()}
          >
            {t('delete')}
          </button>
        </div>
      )}
      {(busy === 'test' || report) && (
        <div
          className={`postgis-item__report${report && !report.ok ? ' postgis-item__report--failed' : ''}`}
          data-testid="postgis-test-result"
          data-ok={report ? String(report.ok) : undefined}
          data-code={report && !report.ok ? report.code : undefined}
          role="status"
          aria-busy={busy === 'test'}
        >
          {report ? testReportLabel(report) : <span className="postgis-spinner" aria-label={t('testing')} />}
        </div>
      )}
      {error && (
        <div className="layer-item__error" role="alert" data-testid="postgis-error">
          {error}
        </div>
      )}
      {tables && !tables.ok && (
        <div className="layer-item__error" role="alert" data-testid="postgis-error" data-code={tables.code}>
          {tables.reason}
        </div>
      )}
      {tables?.ok && <PostgisTableList connectionId={id} connectionName={connection.name} schemas={tables.schemas} />}
    </li>
  );
}

/** A small padlock, drawn: emoji fonts are not everywhere. */
function LockIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true">
      <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <rect x="3" y="7" width="10" height="7.5" rx="1.5" fill="currentColor" />
    </svg>
  );
}
