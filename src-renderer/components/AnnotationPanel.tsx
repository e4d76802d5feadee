import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { appStore } from '../store/appStore.js';
import { selectAnnotationError, selectAnnotations, selectMovingAnnotation } from '../store/slices/annotationsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import './AnnotationPanel.css';

/**
 * The annotation layer's list over the map (top-left): one row per annotation, top first,
 * with Move (then drag on the map, map/useAnnotationLayers.ts) and Delete. Both are the
 * person's own `annotations.*` tool calls through `entries/trigger`; Undo brings them back.
 */
export function AnnotationPanel() {
  const { t } = useTranslation('map');
  const annotations = useAppStore(selectAnnotations);
  const movingId = useAppStore(selectMovingAnnotation);
  const error = useAppStore(selectAnnotationError);
  const trigger = useEntryTrigger();
  const [open, setOpen] = useState(true);
  if (annotations.length === 0) return null;

  const remove = async (id: string) => {
    const problem = await trigger('annotations.delete', { id });
    appStore.getState().setAnnotationError(problem);
  };
  const toggleMove = (id: string) => appStore.getState().setMovingAnnotation(movingId === id ? null : id);

  return (
    <section className="annotation-panel" data-testid="annotation-panel" aria-label={t('annotations')}>
      <button type="button" className="annotation-panel__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('annotationsCount', { count: annotations.length })} <span aria-hidden="true">{open ? '−' : '+'}</span>
      </button>
      {open && (
        <ul className="annotation-panel__list">
          {[...annotations].reverse().map((a) => (
            <li key={a.id} className="annotation-panel__item" data-testid="annotation-item" data-annotation-id={a.id} data-kind={a.kind}>
              <span className="annotation-panel__swatch" style={{ background: a.color }} aria-hidden="true" />
              <span className="annotation-panel__text" title={a.text}>
                {a.text || t(`kind_${a.kind}`)}
              </span>
              <button
                type="button"
                data-testid="annotation-move"
                aria-pressed={movingId === a.id}
                title={movingId === a.id ? t('dragTitle') : t('moveTitle')}
                onClick={() => toggleMove(a.id)}
              >
                {movingId === a.id ? t('drag') : t('move')}
              </button>
              <button type="button" data-testid="annotation-delete" title={t('deleteTitle')} onClick={() => void remove(a.id)}>
                {t('delete')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="annotation-panel__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
