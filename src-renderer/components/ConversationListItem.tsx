import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationSummary } from '../../src-shared/bridge/conversationContract.js';
import { i18n } from '../i18n/i18n.js';

interface Props {
  conversation: ConversationSummary;
  isCurrent: boolean;
  /** A run is live: switching (and deleting the current one) is refused. */
  locked: boolean;
  onOpen(): void;
  onRename(title: string): Promise<boolean>;
  onDelete(): void;
}

/** "just now", "5 min ago", "3 h ago", else the date: when a conversation was last used. */
export function formatWhen(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  const minutes = Math.round((now - t) / 60_000);
  if (minutes < 1) return i18n.t('chat:justNow');
  if (minutes < 60) return i18n.t('chat:minutesAgo', { count: minutes });
  if (minutes < 24 * 60) return i18n.t('chat:hoursAgo', { count: Math.round(minutes / 60) });
  return new Date(t).toLocaleDateString(i18n.language);
}

/** One conversation: open by clicking it; rename in place; delete after a confirmation. */
export function ConversationListItem({ conversation, isCurrent, locked, onOpen, onRename, onDelete }: Props) {
  const { t } = useTranslation('chat');
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view');
  const [title, setTitle] = useState(conversation.title);
  const input = useRef<HTMLInputElement>(null);
  const lockedWhy = t('finishFirst');

  useEffect(() => {
    if (mode === 'rename') input.current?.select();
  }, [mode]);

  async function commit() {
    const next = title.trim();
    if (!next || next === conversation.title) return setMode('view');
    if (await onRename(next)) setMode('view');
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') void commit();
    if (e.key === 'Escape') {
      setTitle(conversation.title);
      setMode('view');
    }
  }

  const blockDelete = isCurrent && locked;
  return (
    <li
      className={`conv-item${isCurrent ? ' conv-item--current' : ''}`}
      data-testid="conversation-item"
      data-conversation-id={conversation.id}
      data-current={isCurrent ? 'true' : 'false'}
    >
      {mode === 'rename' ? (
        <input
          ref={input}
          className="conv-item__input"
          data-testid="conversation-title-input"
          value={title}
          maxLength={120}
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => void commit()}
          aria-label={t('conversationTitle')}
        />
      ) : (
        <button
          type="button"
          className="conv-item__open"
          data-testid="conversation-open"
          onClick={onOpen}
          disabled={locked && !isCurrent}
          title={locked && !isCurrent ? lockedWhy : conversation.title}
        >
          <span className="conv-item__title" data-testid="conversation-title">
            {conversation.title}
          </span>
          <span className="conv-item__meta">
            {t('itemMeta', { when: formatWhen(conversation.updatedAt), count: conversation.messageCount })}
          </span>
        </button>
      )}
      {mode === 'confirm-delete' ? (
        <span className="conv-item__confirm">
          <button type="button" className="btn btn--danger btn--small" data-testid="conversation-delete-confirm" onClick={onDelete}>
            {t('delete')}
          </button>
          <button type="button" className="btn btn--small" onClick={() => setMode('view')}>
            {t('keep')}
          </button>
        </span>
      ) : (
        mode === 'view' && (
          <span className="conv-item__actions">
            <button
              type="button"
              className="icon-btn"
              data-testid="conversation-rename"
              onClick={() => setMode('rename')}
              aria-label={t('renameNamed', { title: conversation.title })}
              title={t('rename')}
            >
              ✎
            </button>
            <button
              type="button"
              className="icon-btn icon-btn--danger"
              data-testid="conversation-delete"
              onClick={() => setMode('confirm-delete')}
              disabled={blockDelete}
              aria-label={t('deleteNamed', { title: conversation.title })}
              title={blockDelete ? lockedWhy : t('delete')}
            >
              ✕
            </button>
          </span>
        )
      )}
    </li>
  );
}
