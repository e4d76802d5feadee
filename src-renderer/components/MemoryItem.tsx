import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_MEMORY_TEXT, type Memory } from '../../src-shared/domain/memory.js';

interface Props {
  memory: Memory;
  onEdit(id: string, text: string): Promise<boolean>;
  onRemove(id: string): Promise<boolean>;
}

/** One memory: its text and scope, edited in place (Enter saves, Escape cancels), or deleted. */
export function MemoryItem({ memory, onEdit, onRemove }: Props) {
  const { t } = useTranslation('memory');
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    if (draft === null || busy) return;
    setBusy(true);
    // Closed only once main kept it: a refused text stays in the box to be fixed.
    if (await onEdit(memory.id, draft)) setDraft(null);
    setBusy(false);
  }

  async function remove() {
    setBusy(true);
    if (!(await onRemove(memory.id))) setBusy(false);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.stopPropagation();
      setDraft(null);
    }
  }

  return (
    <li className="memory-item" data-testid="memory-item" data-scope={memory.scope} data-memory-id={memory.id}>
      <span className={`memory-item__scope memory-item__scope--${memory.scope}`} title={t(`scopeTitle_${memory.scope}`)}>
        {t(`scope_${memory.scope}`)}
      </span>
      {draft === null ? (
        <p className="memory-item__text" data-testid="memory-text">
          {memory.text}
        </p>
      ) : (
        <textarea
          className="memory-item__input"
          data-testid="memory-input"
          aria-label={t('editLabel')}
          value={draft}
          maxLength={MAX_MEMORY_TEXT}
          rows={3}
          autoFocus
          disabled={busy}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
      <div className="memory-item__actions">
        {draft === null ? (
          <>
            <button
              type="button"
              className="btn btn--small"
              data-testid="memory-edit"
              disabled={busy}
              onClick={() => setDraft(memory.text)}
            >
              {t('edit')}
            </button>
            <button
              type="button"
              className="btn btn--small btn--danger"
              data-testid="memory-delete"
              title={t('deleteTitle')}
              disabled={busy}
              onClick={() => void remove()}
            >
              {t('delete')}
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="btn btn--small btn--primary"
              data-testid="memory-save"
              disabled={busy || draft.trim() === ''}
              onClick={() => void save()}
            >
              {t('save')}
            </button>
            <button type="button" className="btn btn--small" data-testid="memory-cancel" disabled={busy} onClick={() => setDraft(null)}>
              {t('cancel')}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
