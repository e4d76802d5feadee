import { useEffect, useRef } from 'react';
import { selectModel } from '../store/slices/appInfoSlice.js';
import { selectMessageIds } from '../store/slices/chatSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ChatComposer } from './ChatComposer.js';
import { ChatMessage } from './ChatMessage.js';
import { ConversationList } from './ConversationList.js';

/** Pixels from the bottom within which the list keeps following new text. */
const STICK_THRESHOLD = 48;

function ChatEmptyState() {
  const model = useAppStore(selectModel);
  return (
    <div className="chat-empty">
      <p className="chat-empty__title">Ask about your map</p>
      <p>“Load the rivers from this GeoPackage”, “buffer the towns by 5 km”, “what is the CRS of the DEM?”</p>
      {model && !model.configured && <p className="chat-empty__warn">{model.help ?? 'No model is configured yet.'}</p>}
    </div>
  );
}

/** The conversation: messages, following the newest while the person is at the bottom. */
export function ChatDock() {
  const ids = useAppStore(selectMessageIds);
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

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

  return (
    <section className="chat-dock" aria-label="Assistant">
      <header className="panel-header">Assistant</header>
      <ConversationList />
      <div className="chat-dock__scroll" ref={scrollRef}>
        <div className="chat-dock__messages" ref={contentRef} role="log" aria-live="polite">
          {ids.length === 0 ? <ChatEmptyState /> : ids.map((id) => <ChatMessage key={id} id={id} />)}
        </div>
      </div>
      <ChatComposer />
    </section>
  );
}
