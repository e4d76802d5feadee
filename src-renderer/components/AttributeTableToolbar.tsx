import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n.js';
import { MAX_FEATURES_BY_ID } from '../../src-shared/bridge/attributeContract.js';
import type { SelectionHighlight } from '../store/selectionStore.js';

interface Props {
  layerName: string;
  count: string;
  /** The filter the rows show now ('' for none). */
  appliedFilter: string;
  /** Runs a filter; resolves null when applied, or the error to show next to the field. */
  onFilter(where: string | null): Promise<string | null>;
  selectedCount: number;
  /** False for tables: rows without geometry have nowhere to zoom to. */
  canZoom: boolean;
  highlight: SelectionHighlight | null;
  onZoomToSelection(): void;
  onSelectMatching(): void;
  onClearSelection(): void;
  onClose(): void;
}

/** The selection, and why the map may show less of it; ` · ` separates notes (a list, not a sentence). */
function selectionNote(selected: number, highlight: SelectionHighlight | null): string {
  const parts = [i18n.t('table:selected', { n: selected.toLocaleString('en') })];
  if (highlight?.capped) parts.push(i18n.t('table:capped', { max: MAX_FEATURES_BY_ID.toLocaleString('en') }));
  if (highlight?.error) parts.push(i18n.t('table:notDrawn', { error: highlight.error }));
  return parts.join(' · ');
}

/** The table's head: layer, row count, filter (applied on Enter), selection actions, close. */
export function AttributeTableToolbar(props: Props) {
  const { t } = useTranslation(['table', 'common']);
  const { layerName, count, appliedFilter, selectedCount, highlight } = props;
  const [draft, setDraft] = useState(appliedFilter);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function apply() {
    setBusy(true);
    const text = draft.trim();
    setError(await props.onFilter(text === '' ? null : text));
    setBusy(false);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') {
      e.preventDefault();
      void apply();
    } else if (e.key === 'Escape') {
      // Back to the filter in force; the map's Escape (clear selection) is not for this field.
      e.preventDefault();
      setDraft(appliedFilter);
      setError(null);
    }
  }

  return (
    <header className="attribute-table__head">
      <span className="attribute-table__title" title={layerName}>
        {layerName}
      </span>
      <span className="attribute-table__count" data-testid="attribute-count">
        {count}
      </span>
      <div className="attribute-table__filter">
        <input
          type="search"
          className={`attribute-table__filter-input${error ? ' attribute-table__filter-input--error' : ''}`}
          data-testid="attribute-filter"
          placeholder={t('filterPlaceholder')}
          aria-label={t('filterLabel')}
          aria-invalid={error !== null}
          aria-busy={busy}
          value={draft}
          spellCheck={false}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {error && (
          <span className="attribute-table__filter-error" data-testid="attribute-filter-error" role="alert" title={error}>
            {error}
          </span>
        )}
      </div>
      {appliedFilter && (
        <button
          type="button"
          className="btn btn--small"
          data-testid="attribute-select-matching"
          onClick={props.onSelectMatching}
          title={t('selectMatchingTitle')}
        >
          {t('selectMatching')}
        </button>
      )}
      {selectedCount > 0 && (
        <>
          <span className="attribute-table__selection" data-testid="attribute-selection-count" data-count={selectedCount}>
            {selectionNote(selectedCount, highlight)}
          </span>
          {props.canZoom && (
            <button
              type="button"
              className="btn btn--small"
              data-testid="attribute-zoom-selection"
              disabled={!highlight?.bbox}
              onClick={props.onZoomToSelection}
            >
              {t('zoomToSelection')}
            </button>
          )}
          <button
            type="button"
            className="btn btn--small"
            data-testid="attribute-clear-selection"
            onClick={props.onClearSelection}
            title={t('clearTitle')}
          >
            {t('clear')}
          </button>
        </>
      )}
      <button
        type="button"
        className="icon-btn"
        data-testid="attribute-table-close"
        aria-label={t('closeTable')}
        title={t('close', { ns: 'common' })}
        onClick={props.onClose}
      >
        ×
      </button>
    </header>
  );
}
