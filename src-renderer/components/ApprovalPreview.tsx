import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { previewRows } from './approvalPreviewRows.js';
import './ToolLayerControls.css';

/** What the call will do, as main worked it out before asking: which layer, how much, where to. */
export function ApprovalPreview({ preview }: { preview: NonNullable<ApprovalRequest['preview']> }) {
  const rows = previewRows(preview);
  if (rows.length === 0) return null;
  return (
    <dl className="approval-preview" data-testid="approval-preview">
      {rows.map(({ key, label, value }) => (
        <div key={key} className="approval-preview__row">
          <dt>{label}</dt>
          <dd title={value}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
