import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectModel } from '../store/slices/appInfoSlice.js';
import { makeSelectMessageWindow, selectMessageCount } from '../store/slices/chatSlice.js';
import { selectCurrentConversationId } from '../store/slices/conversationsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ChatComposer } from './ChatComposer.js';
import './ChatDock.css';
import { ChatMessage } from './ChatMessage.js';
import { ConversationList } from './ConversationList.js';
import { RecipeBar } from './RecipeBar.js';

/** Pixels from the bottom within which the list keeps following new text. */
const STICK_THRESHOLD = 48;
/**
 * Messages shown when a conversation opens, and added by each "Show earlier messages": a
 * conversation of thousands opens at the cost of this many, and every message stays reachable.
 */
export const MESSAGE_PAGE = 200;

function ChatEmptyState() {
  const { t } = useTranslation('chat');
  const model = useAppStore(selectModel);
  return (
    <div className="chat-empty">
      <p className="chat-empty__title">{t('emptyTitle')}</p>
      <p>{t('emptyExamples')}</p>
      {model && !model.configured && <p className="chat-empty__warn">{model.help ?? t('noModel')}</p>}
    </div>
  );
}

/**
 * Where the shown part of the chat starts: the newest `MESSAGE_PAGE` when a conversation
 * opens, earlier on request. An index, so messages streaming in are added below without
 * pushing the ones read off the top.
 */
function useWindowStart(total: number): [number, () => void] {
  const conversationId = useAppStore(selectCurrentConversationId);
  const [anchor, setAnchor] = useState({ conversationId, start: Math.max(0, total - MESSAGE_PAGE) });
  let start = anchor.start;
  if (anchor.conversationId !== conversationId) {
    // Another conversation: its newest page (React's pattern for state that follows a prop).
    start = Math.max(0, total - MESSAGE_PAGE);
    setAnchor({ conversationId, start });
  }
  // A chat that shrank (reloaded with fewer messages) still shows at least its newest page.
  start = Math.min(start, Math.max(0, total - MESSAGE_PAGE));
  const showEarlier = () => setAnchor({ conversationId, start: Math.max(0, start - MESSAGE_PAGE) });
  return [start, showEarlier];
}

/** The conversation: messages, following the newest while the person is at the bottom. */
export function ChatDock() {
  const { t } = useTranslation('chat');
  const total = useAppStore(selectMessageCount);
  const [start, showEarlier] = useWindowStart(total);
  const [selectWindow] = useState(makeSelectMessageWindow);
  const ids = useAppStore((s) => selectWindow(s, start));
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** Distance from the bottom when earlier messages were asked for: kept, so the view stays put. */
  const keepFromBottom = useRef<number | null>(null);

  useEffect(() => {
    const scroller = scrollRef.current;
    const content = contentRef.current;
    if (!scroller || !content) return;
    const onScroll = () => {
      stick.current = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < STICK_THRESHOLD;
    };
    // Streaming grows a message without adding one: watch the content's size, not the ids.
    const observer = new ResizeObserver(() => {
      if (stick.current) scroller.scrollTop = scroller.scrollHeight;
    });
    scroller.addEventListener('scroll', onScroll, { passive: true });
    observer.observe(content);
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, []);

  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller || keepFromBottom.current === null) return;
    scroller.scrollTop = scroller.scrollHeight - keepFromBottom.current;
    keepFromBottom.current = null;
  }, [start]);

  const onShowEarlier = () => {
    const scroller = scrollRef.current;
    if (scroller) keepFromBottom.current = scroller.scrollHeight - scroller.scrollTop;
    showEarlier();
  };

  return (
    <section className="chat-dock" aria-label={t('assistant')}>
      <header className="panel-header">{t('assistant')}</header>
      <ConversationList />
      <RecipeBar />
      <div className="chat-dock__scroll" ref={scrollRef}>
        <div className="chat-dock__messages" ref={contentRef} role="log" aria-live="polite">
          {start > 0 && (
            <div className="chat-dock__earlier">
              <button type="button" className="btn" data-testid="chat-show-earlier" onClick={onShowEarlier}>
                {t('showEarlier')}
              </button>
            </div>
          )}
          {ids.length === 0 ? <ChatEmptyState /> : ids.map((id) => <ChatMessage key={id} id={id} />)}
        </div>
      </div>
      <ChatComposer />
    </section>
  );
}
