import type { DrawTool } from '../edit/editGeometry.js';
import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n.js';
import { drawToolsFor } from '../edit/editGeometry.js';
import type { EditDrawing } from '../edit/useEditDrawing.js';
import './EditToolbar.css';

/** Label and hint are the messages `draw_<tool>` and `drawHint_<tool>`. */
const DRAW_BUTTONS: Record<DrawTool, { testId: string; glyph: string }> = {
  point: { testId: 'edit-draw-point', glyph: '•' },
  linestring: { testId: 'edit-draw-line', glyph: '╱' },
  polygon: { testId: 'edit-draw-polygon', glyph: '⬠' },
};

/** What the person is doing, in a few words under the buttons. */
function statusText(drawing: EditDrawing): string {
  if (drawing.busy) return i18n.t('map:saving');
  if (drawing.tool === 'reshape') return i18n.t('map:reshapeHint');
  if (drawing.tool !== 'idle') return i18n.t(`map:drawHint_${drawing.tool}`);
  return i18n.t('map:chooseTool');
}

/**
 * The editing toolbar over the map while a layer is the GUI's editing target (the layer
 * panel's "Edit"): draw tools matching the layer's geometry type, reshape and delete of the
 * selection, and Done. The work happens in edit/useEditDrawing.ts; this only shows it.
 */
export function EditToolbar({ drawing }: { drawing: EditDrawing }) {
  const { t } = useTranslation('map');
  const { layer } = drawing;
  if (!layer) return null;
  const tools = drawToolsFor(layer.info.geometryType);
  return (
    <div
      className="edit-toolbar"
      data-testid="edit-toolbar"
      data-tool={drawing.tool}
      role="toolbar"
      aria-label={t('editLayer', { name: layer.name })}
    >
      <div className="edit-toolbar__row">
        <span className="edit-toolbar__title" title={layer.name}>
          {t('editing')} <strong>{layer.name}</strong>
        </span>
        {tools.map((tool) => {
          const b = DRAW_BUTTONS[tool];
          const on = drawing.tool === tool;
          return (
            <button
              key={tool}
              type="button"
              className={`edit-toolbar__btn${on ? ' edit-toolbar__btn--on' : ''}`}
              data-testid={b.testId}
              aria-pressed={on}
              disabled={drawing.busy}
              title={t(`drawHint_${tool}`)}
              onClick={() => drawing.draw(tool)}
            >
              <span aria-hidden="true">{b.glyph}</span> {t(`draw_${tool}`)}
            </button>
          );
        })}
        <button
          type="button"
          className={`edit-toolbar__btn${drawing.tool === 'reshape' ? ' edit-toolbar__btn--on' : ''}`}
          data-testid="edit-reshape"
          aria-pressed={drawing.tool === 'reshape'}
          disabled={drawing.busy}
          title={t('reshapeTitle')}
          onClick={() => void drawing.reshape()}
        >
          <span aria-hidden="true">✥</span> {t('reshape')}
        </button>
        <button
          type="button"
          className="edit-toolbar__btn edit-toolbar__btn--danger"
          data-testid="edit-delete-selected"
          disabled={drawing.busy}
          title={t('deleteSelectedTitle')}
          onClick={() => void drawing.deleteSelected()}
        >
          <span aria-hidden="true">✕</span> {t('deleteSelected')}
        </button>
        <button
          type="button"
          className="edit-toolbar__btn edit-toolbar__btn--done"
          data-testid="edit-finish"
          disabled={drawing.busy}
          title={t('doneTitle')}
          onClick={drawing.finish}
        >
          {t('done')}
        </button>
      </div>
      <div className="edit-toolbar__status" aria-live="polite">
        {statusText(drawing)}
      </div>
      {drawing.error && (
        <div className="edit-toolbar__error" role="alert" data-testid="edit-error">
          {drawing.error}
        </div>
      )}
    </div>
  );
}
