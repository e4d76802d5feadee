import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation(['print', 'common']);
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
    setOutcome(parsed.success ? { kind: 'saved', result: parsed.data } : { kind: 'error', message: t('unexpected') });
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && !busy && onClose()}>
      <div className="export-dialog" role="dialog" aria-modal="true" aria-labelledby="export-dialog-title" data-testid="export-dialog">
        <header className="export-dialog__head">
          <h2 id="export-dialog-title">{t('title')}</h2>
          <button type="button" className="icon-btn" aria-label={t('close', { ns: 'common' })} onClick={onClose} disabled={busy !== null}>
            ×
          </button>
        </header>
        <div className="export-dialog__body">
          <p className="export-dialog__hint">{t('hint')}</p>
          <label className="export-dialog__field">
            {t('mapTitle')}
            <input
              data-testid="export-title"
              value={title}
              maxLength={MAX_TITLE_CHARS}
              placeholder={t('untitled')}
              onChange={(e) => setTitle(e.target.value)}
              autoFocus
            />
          </label>
          <div className="export-dialog__row">
            <label className="export-dialog__field">
              {t('pageSize')}
              <select data-testid="export-page-size" value={pageSize} onChange={(e) => setPageSize(e.target.value as PageSize)}>
                {PAGE_SIZES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label className="export-dialog__field">
              {t('orientation')}
              <select data-testid="export-orientation" value={orientation} onChange={(e) => setOrientation(e.target.value as Orientation)}>
                <option value="landscape">{t('landscape')}</option>
                <option value="portrait">{t('portrait')}</option>
              </select>
            </label>
          </div>
          {outcome?.kind === 'saved' && (
            <p className="export-dialog__result" data-testid="export-result" data-path={outcome.result.path} role="status">
              {t('saved', {
                format: outcome.result.format.toUpperCase(),
                width: outcome.result.width,
                height: outcome.result.height,
                dpi: Math.round(outcome.result.dpi),
              })}{' '}
              <code>{outcome.result.path}</code>
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
            {t('close', { ns: 'common' })}
          </button>
          <button type="button" className="btn" data-testid="export-png" onClick={() => void exportAs('png')} disabled={busy !== null}>
            {busy === 'png' ? t('exporting') : t('exportPng')}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="export-pdf"
            onClick={() => void exportAs('pdf')}
            disabled={busy !== null}
          >
            {busy === 'pdf' ? t('exporting') : t('exportPdf')}
          </button>
        </footer>
      </div>
    </div>
  );
}

/** The status bar's Export button and the dialog it opens. */
export function ExportControl() {
  const { t } = useTranslation('print');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`status-bar__item status-bar__button${open ? ' status-bar__button--on' : ''}`}
        data-testid="export-open"
        title={t('openTitle')}
        onClick={() => setOpen(true)}
      >
        {t('open')}
      </button>
      {/* On the page's body: inside the status bar the dialog would take its one-line styles. */}
      {open && createPortal(<ExportDialog onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
