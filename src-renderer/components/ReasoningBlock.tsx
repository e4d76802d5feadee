import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The model's reasoning for one turn, above its answer: open while it grows, folded once
 * the answer (or a tool call) starts, and the person's own click wins after that. Live
 * only — reasoning is never saved, so after a reload the block is gone.
 */
export function ReasoningBlock({ text, answerStarted, live }: { text: string; answerStarted: boolean; live: boolean }) {
  const { t } = useTranslation('chat');
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = chosen ?? !answerStarted;
  const growing = live && !answerStarted;
  const words = text.trim() === '' ? 0 : text.trim().split(/\s+/).length;
  return (
    <div
      className={`reasoning${open ? ' reasoning--open' : ''}`}
      data-testid="reasoning-block"
      data-state={open ? 'open' : 'folded'}
      data-growing={growing ? 'true' : 'false'}
    >
      <button
        type="button"
        className="reasoning__toggle"
        aria-expanded={open}
        onClick={() => setChosen(!open)}
        data-testid="reasoning-toggle"
      >
        <span className="reasoning__chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {growing ? <span className="reasoning__live">{t('thinking')}</span> : <span>{t('reasoningWords', { count: words })}</span>}
      </button>
      {open && (
        <div className="reasoning__text" data-testid="reasoning-text">
          {text.trim()}
        </div>
      )}
    </div>
  );
}
