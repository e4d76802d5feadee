import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { appStore } from '../store/appStore.js';
import { selectMemories, selectMemoriesLoaded, selectMemoryError, selectMemoryOpen } from '../store/slices/memorySlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { MemoryItem } from './MemoryItem.js';
import { useMemoryList } from './useMemoryList.js';
import './AuditPanel.css';
import './MemoryPanel.css';

const close = () => appStore.getState().setMemoryOpen(false);

function MemoryDrawer() {
  const { t } = useTranslation('memory');
  const { edit, remove } = useMemoryList();
  const memories = useAppStore(selectMemories);
  const loaded = useAppStore(selectMemoriesLoaded);
  const error = useAppStore(selectMemoryError);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
  }

  return (
    <aside className="memory-panel" data-testid="memory-panel" aria-label={t('memory')} onKeyDown={onKeyDown}>
      <header className="memory-panel__head">
        <h2>{t('memory')}</h2>
        <span className="memory-panel__count">{loaded ? t('count', { count: memories.length }) : t('loading')}</span>
        <button type="button" className="icon-btn" data-testid="memory-close" aria-label={t('closePanel')} onClick={close}>
          ×
        </button>
      </header>
      <p className="memory-panel__intro">{t('intro')}</p>
      {error && (
        <div className="memory-panel__error" role="alert" data-testid="memory-error">
          {t('actionError', { error })}
        </div>
      )}
      <div className="memory-panel__scroll">
        {loaded && memories.length === 0 ? (
          <p className="memory-panel__empty" data-testid="memory-empty">
            {t('empty')}
          </p>
        ) : (
          <ul className="memory-panel__list">
            {memories.map((memory) => (
              <MemoryItem key={memory.id} memory={memory} onEdit={edit} onRemove={remove} />
            ))}
          </ul>
        )}
      </div>
    </aside>
  );
}

/**
 * What Mapwright keeps between conversations (issue 17): the person's memories and this
 * project's, newest first. The person edits and deletes them here — the model never can. A
 * drawer like the audit log and the plugins; mounted only while open.
 */
export function MemoryPanel() {
  const open = useAppStore(selectMemoryOpen);
  return open ? <MemoryDrawer /> : null;
}

/** The status bar's toggle for the panel. */
export function MemoryOpenButton() {
  const { t } = useTranslation('memory');
  const open = useAppStore(selectMemoryOpen);
  return (
    <button
      type="button"
      className={`status-bar__item status-bar__button${open ? ' status-bar__button--on' : ''}`}
      data-testid="memory-panel-open"
      aria-pressed={open}
      title={t('openTitle')}
      onClick={() => appStore.getState().setMemoryOpen(!open)}
    >
      {t('memory')}
    </button>
  );
}
