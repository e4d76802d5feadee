import type { ConnectionReport } from '../../src-shared/bridge/settingsContract.js';
import { REASONING_LABELS, STREAMING_LABELS, TOOLS_LABELS } from '../lib/settingsForm.js';

/** What "test connection" found: the outcome, then what the endpoint accepted. */
export function ConnectionReportView({ report }: { report: ConnectionReport }) {
  const { detected } = report;
  return (
    <section
      className={`connection-report connection-report--${report.ok ? 'ok' : 'failed'}`}
      data-testid="settings-test-result"
      data-ok={report.ok ? 'true' : 'false'}
    >
      <p className="connection-report__message">{report.message}</p>
      <dl className="connection-report__facts">
        <dt>Tools</dt>
        <dd data-testid="detected-tools" data-value={detected.tools}>
          {TOOLS_LABELS[detected.tools]}
        </dd>
        <dt>Replies</dt>
        <dd data-testid="detected-streaming" data-value={detected.streaming}>
          {STREAMING_LABELS[detected.streaming]}
        </dd>
        <dt>Reasoning</dt>
        <dd data-testid="detected-reasoning" data-value={detected.reasoning}>
          {REASONING_LABELS[detected.reasoning]}
        </dd>
        {report.models && (
          <>
            <dt>Models</dt>
            <dd>{report.models.length} listed</dd>
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
