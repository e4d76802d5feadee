import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ConversationSummary } from '../../src-shared/bridge/conversationContract.js';

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
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`;
  return new Date(t).toLocaleDateString();
}

/** One conversation: open by clicking it; rename in place; delete after a confirmation. */
export function ConversationListItem({ conversation, isCurrent, locked, onOpen, onRename, onDelete }: Props) {
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view');
  const [title, setTitle] = useState(conversation.title);
  const input = useRef<HTMLInputElement>(null);
  const lockedWhy = 'Finish or stop the current run first';

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
          aria-label="Conversation title"
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
            {formatWhen(conversation.updatedAt)} · {conversation.messageCount} message{conversation.messageCount === 1 ? '' : 's'}
          </span>
        </button>
      )}
      {mode === 'confirm-delete' ? (
        <span className="conv-item__confirm">
          <button type="button" className="btn btn--danger btn--small" data-testid="conversation-delete-confirm" onClick={onDelete}>
            Delete
          </button>
          <button type="button" className="btn btn--small" onClick={() => setMode('view')}>
            Keep
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
              aria-label={`Rename ${conversation.title}`}
              title="Rename"
            >
              ✎
            </button>
            <button
              type="button"
              className="icon-btn icon-btn--danger"
              data-testid="conversation-delete"
              onClick={() => setMode('confirm-delete')}
              disabled={blockDelete}
              aria-label={`Delete ${conversation.title}`}
              title={blockDelete ? lockedWhy : 'Delete'}
            >
              ✕
            </button>
          </span>
        )
      )}
    </li>
  );
}
