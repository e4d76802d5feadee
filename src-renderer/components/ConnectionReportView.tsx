import { useTranslation } from 'react-i18next';
import type { ConnectionReport } from '../../src-shared/bridge/settingsContract.js';

/** What "test connection" found: the outcome, then what the endpoint accepted. */
export function ConnectionReportView({ report }: { report: ConnectionReport }) {
  const { t } = useTranslation('settings');
  const { detected } = report;
  return (
    <section
      className={`connection-report connection-report--${report.ok ? 'ok' : 'failed'}`}
      data-testid="settings-test-result"
      data-ok={report.ok ? 'true' : 'false'}
    >
      {/* The outcome and the notes are main's words about the endpoint (kept as sent). */}
      <p className="connection-report__message">{report.message}</p>
      <dl className="connection-report__facts">
        <dt>{t('reportTools')}</dt>
        <dd data-testid="detected-tools" data-value={detected.tools}>
          {t(`tools_${detected.tools}`)}
        </dd>
        <dt>{t('reportReplies')}</dt>
        <dd data-testid="detected-streaming" data-value={detected.streaming}>
          {t(`streaming_${detected.streaming}`)}
        </dd>
        <dt>{t('reportReasoning')}</dt>
        <dd data-testid="detected-reasoning" data-value={detected.reasoning}>
          {t(`reasoning_${detected.reasoning}`)}
        </dd>
        {report.models && (
          <>
            <dt>{t('reportModels')}</dt>
            <dd>{t('reportModelsListed', { count: report.models.length })}</dd>
          </>
        )}
      </dl>
      {report.notes.length > 0 && (
        <ul className="connection-report__notes">
          {report.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
