import { useState } from 'react';
import type { AuditEntryView } from '../../src-shared/domain/toolLayer.js';
import { auditTime, decisionLabel } from './auditFormat.js';
import { formatDuration } from './format.js';
import { JsonView } from './JsonView.js';

const COLUMNS = 7;

/** Who called: you, the assistant, or an outside MCP client by the name it gave. */
function callerLabel(entry: AuditEntryView): string {
  if (entry.caller === 'client') return entry.client ? `client: ${entry.client}` : 'MCP client';
  return entry.caller === 'model' ? 'assistant' : 'you';
}

/** One call in the audit log; its arguments unfold below it. */
export function AuditRow({ entry }: { entry: AuditEntryView }) {
  const [open, setOpen] = useState(false);
  const time = auditTime(entry.at);
  const version = entry.toolVersion ? ` v${entry.toolVersion}` : '';
  return (
    <>
      <tr
        className={`audit-row audit-row--${entry.outcome}`}
        data-testid="audit-row"
        data-tool-id={entry.toolId}
        data-outcome={entry.outcome}
      >
        <td title={time.full}>{time.short}</td>
        <td title={entry.client ? `Outside MCP client: ${entry.client}` : undefined}>{callerLabel(entry)}</td>
        <td className="audit-row__tool" title={`${entry.toolId}${version}${entry.definitionHash ? ` · ${entry.definitionHash}` : ''}`}>
          {entry.toolId}
        </td>
        <td>{decisionLabel(entry)}</td>
        <td>
          <span className={`audit-row__outcome audit-row__outcome--${entry.outcome}`}>{entry.outcome}</span>
          {entry.errorCode && <code className="audit-row__code">{entry.errorCode}</code>}
        </td>
        <td className="audit-row__duration">{formatDuration(entry.durationMs) ?? '—'}</td>
        <td>
          <button
            type="button"
            className="icon-btn"
            data-testid="audit-args-toggle"
            aria-expanded={open}
            aria-label={open ? 'Hide arguments' : 'Show arguments'}
            title={open ? 'Hide arguments' : 'Show arguments'}
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
