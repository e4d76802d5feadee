import './ConversationList.css';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useBridge } from '../bridge/BridgeContext.js';
import { selectConversations, selectCurrentConversationId, selectCurrentTitle } from '../store/slices/conversationsSlice.js';
import { selectRunLive } from '../store/slices/runSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ConversationListItem } from './ConversationListItem.js';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The current conversation's title with a drop-down of the project's conversations (open,
 * rename, delete) and New. Switching is disabled while a run is live; main refuses it too.
 * Results arrive as `conversations/*` events, so this only asks.
 */
export function ConversationList() {
  const { t } = useTranslation('chat');
  const bridge = useBridge();
  const conversations = useAppStore(selectConversations);
  const currentId = useAppStore(selectCurrentConversationId);
  const currentTitle = useAppStore(selectCurrentTitle);
  const live = useAppStore(selectRunLive);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function attempt(action: () => Promise<unknown>): Promise<boolean> {
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  }

  const startNew = () => void attempt(() => bridge.call('conversations/new', {})).then((ok) => ok && setOpen(false));
  const openOne = (id: string) => {
    if (id === currentId) return setOpen(false);
    void attempt(() => bridge.call('conversations/open', { id })).then((ok) => ok && setOpen(false));
  };

  return (
    <div className="conv-bar-wrap">
      <div className="conv-bar">
        <button
          type="button"
          className="conv-bar__toggle"
          data-testid="conversation-list-toggle"
          aria-expanded={open}
          aria-controls="conversation-list"
          onClick={() => setOpen((o) => !o)}
          title={t('conversationsTitle')}
        >
          <span className="conv-bar__title" data-testid="conversation-current-title">
            {currentTitle ?? t('newConversation')}
          </span>
          <span className="conv-bar__count">{conversations.length || ''}</span>
          <span className="conv-bar__caret" aria-hidden="true">
            {open ? '▴' : '▾'}
          </span>
        </button>
        <button
          type="button"
          className="btn btn--small"
          data-testid="conversation-new"
          onClick={startNew}
          disabled={live}
          title={live ? t('finishFirst') : t('startNew')}
        >
          {t('new')}
        </button>
      </div>
      {error && (
        <div className="conv-bar__error" role="alert">
          {error}
        </div>
      )}
      {open && (
        <div className="conv-list" id="conversation-list" data-testid="conversation-list">
          {conversations.length === 0 ? (
            <p className="conv-list__empty">{t('noConversations')}</p>
          ) : (
            <ul className="conv-list__items">
              {conversations.map((c) => (
                <ConversationListItem
                  key={c.id}
                  conversation={c}
                  isCurrent={c.id === currentId}
                  locked={live}
                  onOpen={() => openOne(c.id)}
                  onRename={(title) => attempt(() => bridge.call('conversations/rename', { id: c.id, title }))}
                  onDelete={() => void attempt(() => bridge.call('conversations/delete', { id: c.id }))}
                />
              ))}
            </ul>
          )}
          {live && <p className="conv-list__locked">{t('switchingWaits')}</p>}
        </div>
      )}
    </div>
  );
}
