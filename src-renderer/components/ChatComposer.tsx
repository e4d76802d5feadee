import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/BridgeContext.js';
import { selectRunLive } from '../store/slices/runSlice.js';
import { useAppStore } from '../store/useAppStore.js';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Input, Send and Stop. Enter sends, Shift+Enter starts a new line. */
export function ChatComposer() {
  const { t } = useTranslation('chat');
  const bridge = useBridge();
  const live = useAppStore(selectRunLive);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canSend = text.trim().length > 0 && !sending && !live;

  async function send() {
    if (!canSend) return;
    setSending(true);
    setError(null);
    try {
      await bridge.call('chat/send', { text });
      setText('');
    } catch (e) {
      setError(errorText(e)); // keep the text so nothing typed is lost
    } finally {
      setSending(false);
    }
  }

  async function stop() {
    setStopping(true);
    try {
      await bridge.call('run/stop', {});
    } catch (e) {
      setError(errorText(e));
    } finally {
      setStopping(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  }

  return (
    <div className="chat-composer">
      {error && (
        <div className="chat-composer__error" role="alert">
          {error}
        </div>
      )}
      <textarea
        className="chat-composer__input"
        data-testid="chat-input"
        placeholder={live ? t('placeholderWorking') : t('placeholder')}
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label={t('message')}
      />
      <div className="chat-composer__actions">
        {live && (
          <button type="button" className="btn btn--danger" data-testid="stop-run" onClick={() => void stop()} disabled={stopping}>
            {t('stop')}
          </button>
        )}
        <button type="button" className="btn btn--primary" data-testid="chat-send" onClick={() => void send()} disabled={!canSend}>
          {sending ? t('sending') : t('send')}
        </button>
      </div>
    </div>
  );
}
