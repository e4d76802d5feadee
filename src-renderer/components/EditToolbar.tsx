import type { DrawTool } from '../edit/editGeometry.js';
import { drawToolsFor } from '../edit/editGeometry.js';
import type { EditDrawing } from '../edit/useEditDrawing.js';
import './EditToolbar.css';

const DRAW_BUTTONS: Record<DrawTool, { testId: string; label: string; glyph: string; hint: string }> = {
  point: { testId: 'edit-draw-point', label: 'Point', glyph: '•', hint: 'Click the map to add a point' },
  linestring: {
    testId: 'edit-draw-line',
    label: 'Line',
    glyph: '╱',
    hint: 'Click to add vertices; click the last one again (or press Enter) to finish',
  },
  polygon: {
    testId: 'edit-draw-polygon',
    label: 'Polygon',
    glyph: '⬠',
    hint: 'Click to add vertices; click the first one again (or press Enter) to close',
  },
};

/** What the person is doing, in a few words under the buttons. */
function statusText(drawing: EditDrawing): string {
  if (drawing.busy) return 'Saving…';
  if (drawing.tool === 'reshape') return 'Drag the vertices of the selected feature; each move is saved';
  if (drawing.tool !== 'idle') return DRAW_BUTTONS[drawing.tool].hint;
  return 'Choose a tool (press it again to put it down)';
}

/**
 * The editing toolbar over the map while a layer is the GUI's editing target (the layer
 * panel's "Edit"): draw tools matching the layer's geometry type, reshape and delete of the
 * selection, and Done. The work happens in edit/useEditDrawing.ts; this only shows it.
 */
export function EditToolbar({ drawing }: { drawing: EditDrawing }) {
  const { layer } = drawing;
  if (!layer) return null;
  const tools = drawToolsFor(layer.info.geometryType);
  return (
    <div className="edit-toolbar" data-testid="edit-toolbar" data-tool={drawing.tool} role="toolbar" aria-label={`Edit ${layer.name}`}>
      <div className="edit-toolbar__row">
        <span className="edit-toolbar__title" title={layer.name}>
          Editing <strong>{layer.name}</strong>
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
              title={b.hint}
              onClick={() => drawing.draw(tool)}
            >
              <span aria-hidden="true">{b.glyph}</span> {b.label}
            </button>
          );
        })}
        <button
          type="button"
          className={`edit-toolbar__btn${drawing.tool === 'reshape' ? ' edit-toolbar__btn--on' : ''}`}
          data-testid="edit-reshape"
          aria-pressed={drawing.tool === 'reshape'}
          disabled={drawing.busy}
          title="Move the vertices of the selected feature"
          onClick={() => void drawing.reshape()}
        >
          <span aria-hidden="true">✥</span> Reshape
        </button>
        <button
          type="button"
          className="edit-toolbar__btn edit-toolbar__btn--danger"
          data-testid="edit-delete-selected"
          disabled={drawing.busy}
          title="Delete the selected features (Undo brings them back)"
          onClick={() => void drawing.deleteSelected()}
        >
          <span aria-hidden="true">✕</span> Delete selected
        </button>
        <button
          type="button"
          className="edit-toolbar__btn edit-toolbar__btn--done"
          data-testid="edit-finish"
          disabled={drawing.busy}
          title="Stop editing on the map (the edits are kept)"
          onClick={drawing.finish}
        >
          Done
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
