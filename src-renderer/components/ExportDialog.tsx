import { useState } from 'react';
import { createPortal } from 'react-dom';
import { MapExportResult, MAX_TITLE_CHARS, PAGE_SIZES, type Orientation, type PageSize } from '../../src-shared/domain/printLayout.js';
import { useEntryRun } from '../bridge/useEntryTrigger.js';
import './ExportDialog.css';

type Format = 'pdf' | 'png';
type Outcome = { kind: 'saved'; result: MapExportResult } | { kind: 'error'; message: string } | null;

/**
 * The person's print layout (issue #15): title, page size, orientation, then PDF or PNG. It
 * runs `map.export` as the user through `entries/trigger` — the model's tool, one path — and
 * shows where the file went.
 */
function ExportDialog({ onClose }: { onClose(): void }) {
  const run = useEntryRun();
  const [title, setTitle] = useState('');
  const [pageSize, setPageSize] = useState<PageSize>('A4');
  const [orientation, setOrientation] = useState<Orientation>('landscape');
  const [busy, setBusy] = useState<Format | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const exportAs = async (format: Format) => {
    setBusy(format);
    setOutcome(null);
    const params = { format, page_size: pageSize, orientation, ...(title.trim() ? { title: title.trim() } : {}) };
    const answer = await run('map.export', params);
    setBusy(null);
    if (!answer.ok) return setOutcome({ kind: 'error', message: answer.message });
    const parsed = MapExportResult.safeParse(answer.data);
    setOutcome(
      parsed.success ? { kind: 'saved', result: parsed.data } : { kind: 'error', message: 'The export sent an unexpected answer' },
    );
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && !busy && onClose()}>
      <div className="export-dialog" role="dialog" aria-modal="true" aria-labelledby="export-dialog-title" data-testid="export-dialog">
        <header className="export-dialog__head">
          <h2 id="export-dialog-title">Export map</h2>
          <button type="button" className="icon-btn" aria-label="Close" onClick={onClose} disabled={busy !== null}>
            ×
          </button>
        </header>
        <div className="export-dialog__body">
          <p className="export-dialog__hint">
            The map as you see it, with its title, legend, scale bar, north arrow, attribution and today’s date, saved in the project’s
            outputs folder.
          </p>
          <label className="export-dialog__field">
            Title
            <input
              data-testid="export-title"
              value={title}
              maxLength={MAX_TITLE_CHARS}
              placeholder="Untitled map"
              onChange={(e) => setTitle(e.target.value)}
              autoFocus
            />
          </label>
          <div className="export-dialog__row">
            <label className="export-dialog__field">
              Page size
              <select data-testid="export-page-size" value={pageSize} onChange={(e) => setPageSize(e.target.value as PageSize)}>
                {PAGE_SIZES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label className="export-dialog__field">
              Orientation
              <select data-testid="export-orientation" value={orientation} onChange={(e) => setOrientation(e.target.value as Orientation)}>
                <option value="landscape">Landscape</option>
                <option value="portrait">Portrait</option>
              </select>
            </label>
          </div>
          {outcome?.kind === 'saved' && (
            <p className="export-dialog__result" data-testid="export-result" data-path={outcome.result.path} role="status">
              Saved {outcome.result.format.toUpperCase()} ({outcome.result.width} × {outcome.result.height} px,{' '}
              {Math.round(outcome.result.dpi)} DPI): <code>{outcome.result.path}</code>
            </p>
          )}
          {outcome?.kind === 'error' && (
            <p className="export-dialog__error" data-testid="export-error" role="alert">
              {outcome.message}
            </p>
          )}
        </div>
        <footer className="export-dialog__actions">
          <button type="button" className="btn" data-testid="export-close" onClick={onClose} disabled={busy !== null}>
            Close
          </button>
          <button type="button" className="btn" data-testid="export-png" onClick={() => void exportAs('png')} disabled={busy !== null}>
            {busy === 'png' ? 'Exporting…' : 'Export PNG'}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="export-pdf"
            onClick={() => void exportAs('pdf')}
            disabled={busy !== null}
          >
            {busy === 'pdf' ? 'Exporting…' : 'Export PDF'}
          </button>
        </footer>
      </div>
    </div>
  );
}

/** The status bar's Export button and the dialog it opens. */
export function ExportControl() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`status-bar__item status-bar__button${open ? ' status-bar__button--on' : ''}`}
        data-testid="export-open"
        title="Export the map as a print layout (PDF or PNG)"
        onClick={() => setOpen(true)}
      >
        Export
      </button>
      {/* On the page's body: inside the status bar the dialog would take its one-line styles. */}
      {open && createPortal(<ExportDialog onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
