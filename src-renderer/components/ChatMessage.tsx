import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { selectMessage } from '../store/slices/chatSlice.js';
import { selectReasoning } from '../store/slices/reasoningSlice.js';
import { selectRunLive } from '../store/slices/runSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ReasoningBlock } from './ReasoningBlock.js';
import { RunPlanButton } from './RunPlanButton.js';
import { ChatCompactionNotice } from './ChatCompactionNotice.js';
import { ToolCallCard } from './ToolCallCard.js';

/**
 * One entry of the conversation, subscribed by id so streaming re-renders only this one; memo,
 * so a message added to the list does not re-render the others.
 */
export const ChatMessage = memo(function ChatMessage({ id }: { id: string }) {
  // Subscribed to the language too: memo keeps this from re-rendering with its parent.
  const { t } = useTranslation('chat');
  const message = useAppStore(selectMessage(id));
  const live = useAppStore(selectRunLive);
  const reasoning = useAppStore(selectReasoning(id));
  if (!message) return null;
  const { role } = message;

  if (role === 'tool') {
    return (
      <div className="chat-msg chat-msg--tool" data-testid="chat-message" data-role="tool">
        {message.tool ? <ToolCallCard tool={message.tool} /> : <div className="chat-msg__text">{message.text}</div>}
      </div>
    );
  }
  if (message.compaction) return <ChatCompactionNotice message={message} />;
  if (role === 'notice') {
    const level = message.level ?? 'info';
    return (
      <div className={`chat-msg chat-msg--notice chat-msg--${level}`} data-testid="chat-message" data-role="notice" data-level={level}>
        <div className="chat-msg__text" role={level === 'error' ? 'alert' : undefined}>
          {message.text}
        </div>
      </div>
    );
  }
  // An empty assistant turn is either still streaming (dots) or only called tools, whose
  // cards follow: then it takes no space.
  const empty = message.text.length === 0;
  const calls = (message.toolCalls?.length ?? 0) > 0;
  const hidden = empty && !reasoning && (calls || !live);
  return (
    <div className={`chat-msg chat-msg--${role}${hidden ? ' chat-msg--empty' : ''}`} data-testid="chat-message" data-role={role}>
      {reasoning && <ReasoningBlock text={reasoning} answerStarted={!empty || calls} live={live} />}
      {empty && reasoning ? null : empty && !hidden ? (
        <div className="chat-msg__typing" aria-label={t('writing')}>
          <span />
          <span />
          <span />
        </div>
      ) : (
        <div className="chat-msg__text">{message.text}</div>
      )}
      {role === 'assistant' && <RunPlanButton messageId={id} />}
    </div>
  );
});
