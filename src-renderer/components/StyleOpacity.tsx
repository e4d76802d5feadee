import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Layer } from '../../src-shared/domain/layer.js';
import { opacityCall } from '../style/styleForm.js';

/**
 * The layer's opacity, applied when the slider is let go (the native `change` event; React's
 * onChange fires on every step), so one drag is one audited, undoable `layers.set_opacity`.
 */
export function StyleOpacity({ layer, run }: { layer: Layer; run(entry: string, params: Record<string, unknown>): Promise<void> }) {
  const { t } = useTranslation('style');
  const [draft, setDraft] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef({ layer, run });
  latest.current = { layer, run };

  useEffect(() => {
    const el = input.current;
    if (!el) return;
    const commit = () => {
      const { layer: l, run: r } = latest.current;
      const call = opacityCall(l, Number(el.value));
      void r(call.entry, call.params).finally(() => setDraft(null));
    };
    el.addEventListener('change', commit);
    return () => el.removeEventListener('change', commit);
  }, []);

  const percent = draft ?? Math.round(layer.opacity * 100);
  return (
    <label className="style-panel__row">
      <span className="style-panel__label">{t('opacity')}</span>
      <span className="style-panel__opacity">
        <input
          ref={input}
          type="range"
          min={0}
          max={100}
          step={1}
          value={percent}
          data-testid="style-opacity"
          aria-label={t('opacityOf', { name: layer.name })}
          onChange={(e) => setDraft(Number(e.target.value))}
        />
        <span className="style-panel__opacity-value">{percent}%</span>
      </span>
    </label>
  );
}
