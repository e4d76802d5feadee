import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n.js';
import { toolTitle } from '../i18n/toolTitles.js';
import type { AuditEntryView } from '../../src-shared/domain/toolLayer.js';
import { auditTime, decisionLabel } from './auditFormat.js';
import { formatDuration } from './format.js';
import { JsonView } from './JsonView.js';

const COLUMNS = 7;

/** Who called: you, the assistant, or an outside MCP client by the name it gave. */
function callerLabel(entry: AuditEntryView): string {
  if (entry.caller === 'client') return entry.client ? i18n.t('audit:callerClient', { name: entry.client }) : i18n.t('audit:callerMcp');
  return entry.caller === 'model' ? i18n.t('audit:callerModel') : i18n.t('audit:callerUser');
}

/** One call in the audit log; its arguments unfold below it. */
export function AuditRow({ entry }: { entry: AuditEntryView }) {
  const { t } = useTranslation('audit');
  const [open, setOpen] = useState(false);
  const time = auditTime(entry.at);
  const version = entry.toolVersion ? ` v${entry.toolVersion}` : '';
  // The row names the tool by id; outside English its title, where the catalogue has one,
  // joins the hover text (main sends no title with audit rows, so English has none to show).
  const localTitle = toolTitle(entry.toolId, '');
  const toolHover = `${localTitle ? `${localTitle} — ` : ''}${entry.toolId}${version}${entry.definitionHash ? ` · ${entry.definitionHash}` : ''}`;
  return (
    <>
      <tr
        className={`audit-row audit-row--${entry.outcome}`}
        data-testid="audit-row"
        data-tool-id={entry.toolId}
        data-outcome={entry.outcome}
      >
        <td title={time.full}>{time.short}</td>
        <td title={entry.client ? t('outsideClient', { name: entry.client }) : undefined}>{callerLabel(entry)}</td>
        <td className="audit-row__tool" title={toolHover}>
          {entry.toolId}
        </td>
        <td>{decisionLabel(entry)}</td>
        <td>
          <span className={`audit-row__outcome audit-row__outcome--${entry.outcome}`}>{t(`outcome_${entry.outcome}`)}</span>
          {entry.errorCode && <code className="audit-row__code">{entry.errorCode}</code>}
        </td>
        <td className="audit-row__duration">{formatDuration(entry.durationMs) ?? '—'}</td>
        <td>
          <button
            type="button"
            className="icon-btn"
            data-testid="audit-args-toggle"
            aria-expanded={open}
            aria-label={open ? t('hideArgs') : t('showArgs')}
            title={open ? t('hideArgs') : t('showArgs')}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>
        </td>
      </tr>
      {open && (
        <tr className="audit-row__details">
          <td colSpan={COLUMNS}>
            <JsonView value={entry.args} className="audit-row__args" />
          </td>
        </tr>
      )}
    </>
  );
}
