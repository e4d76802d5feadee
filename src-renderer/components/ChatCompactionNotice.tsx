import './ChatCompactionNotice.css';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../src-shared/domain/chat.js';

/**
 * Marks where older turns were folded into a summary for the model (context compaction). The
 * messages themselves stay in the chat above; the summary the model now reads is one click away.
 */
export function ChatCompactionNotice({ message }: { message: ChatMessage }) {
  const { t } = useTranslation('chat');
  const folded = message.compaction?.foldedMessages ?? 0;
  return (
    <div className="chat-msg chat-msg--notice chat-msg--compaction" data-testid="chat-message" data-role="notice" data-compaction="true">
      <details>
        <summary>{t('compaction', { count: folded })}</summary>
        <div className="chat-msg__text chat-compaction__text">{message.text}</div>
      </details>
    </div>
  );
}
