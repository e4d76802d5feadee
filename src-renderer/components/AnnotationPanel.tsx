import { useState } from 'react';
import type { Annotation } from '../../src-shared/domain/annotation.js';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { appStore } from '../store/appStore.js';
import { selectAnnotationError, selectAnnotations, selectMovingAnnotation } from '../store/slices/annotationsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import './AnnotationPanel.css';

const KIND_WORD: Record<Annotation['kind'], string> = { note: 'Note', arrow: 'Arrow', highlight: 'Highlight' };

/**
 * The annotation layer's list over the map (top-left): one row per annotation, top first,
 * with Move (then drag on the map, map/useAnnotationLayers.ts) and Delete. Both are the
 * person's own `annotations.*` tool calls through `entries/trigger`; Undo brings them back.
 */
export function AnnotationPanel() {
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
    <section className="annotation-panel" data-testid="annotation-panel" aria-label="Annotations">
      <button type="button" className="annotation-panel__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        Annotations ({annotations.length}) <span aria-hidden="true">{open ? '−' : '+'}</span>
      </button>
      {open && (
        <ul className="annotation-panel__list">
          {[...annotations].reverse().map((a) => (
            <li key={a.id} className="annotation-panel__item" data-testid="annotation-item" data-annotation-id={a.id} data-kind={a.kind}>
              <span className="annotation-panel__swatch" style={{ background: a.color }} aria-hidden="true" />
              <span className="annotation-panel__text" title={a.text}>
                {a.text || KIND_WORD[a.kind]}
              </span>
              <button
                type="button"
                data-testid="annotation-move"
                aria-pressed={movingId === a.id}
                title={movingId === a.id ? 'Drag on the map to move it (Escape to cancel)' : 'Move it by dragging on the map'}
                onClick={() => toggleMove(a.id)}
              >
                {movingId === a.id ? 'Drag…' : 'Move'}
              </button>
              <button type="button" data-testid="annotation-delete" title="Delete (Undo brings it back)" onClick={() => void remove(a.id)}>
                Delete
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
