import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { CellValue } from '../../src-shared/bridge/attributeContract.js';
import { cellEditText } from '../table/cellEdit.js';

interface Props {
  value: CellValue | undefined;
  busy: boolean;
  onCommit(text: string): void;
  onCancel(): void;
}

/**
 * The input over a table cell being edited: Enter sends, Escape (or leaving it) abandons.
 * Keys stay here, so the table and the map do not act on them too.
 */
export function AttributeCellEditor({ value, busy, onCommit, onCancel }: Props) {
  const { t } = useTranslation('table');
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  return (
    <input
      ref={ref}
      className="attribute-cell__editor"
      data-testid="attribute-cell-editor"
      defaultValue={cellEditText(value)}
      readOnly={busy}
      aria-label={t('newValue')}
      onClick={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') onCommit(e.currentTarget.value);
        else if (e.key === 'Escape') onCancel();
      }}
      onBlur={() => !busy && onCancel()}
    />
  );
}
