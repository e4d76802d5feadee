import './ChatCompactionNotice.css';
import type { ChatMessage } from '../../src-shared/domain/chat.js';

/**
 * Marks where older turns were folded into a summary for the model (context compaction). The
 * messages themselves stay in the chat above; the summary the model now reads is one click away.
 */
export function ChatCompactionNotice({ message }: { message: ChatMessage }) {
  const folded = message.compaction?.foldedMessages ?? 0;
  return (
    <div className="chat-msg chat-msg--notice chat-msg--compaction" data-testid="chat-message" data-role="notice" data-compaction="true">
      <details>
        <summary>
          The assistant now reads a summary of the {folded} earlier message{folded === 1 ? '' : 's'} above
        </summary>
        <div className="chat-msg__text chat-compaction__text">{message.text}</div>
      </details>
    </div>
  );
}
