import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AttributeRow } from '../../src-shared/bridge/attributeContract.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { appStore } from '../store/appStore.js';
import { attributeTableStore, useAttributeTable } from '../store/attributeTableStore.js';
import { selectLayers } from '../store/slices/layersSlice.js';
import { selectionStore, useSelection } from '../store/selectionStore.js';
import { useAppStore } from '../store/useAppStore.js';
import { rowClickOutcome } from '../table/rowClick.js';
import { countText, nextSort } from '../table/tableFormat.js';
import { useColumnWidths } from '../table/useColumnWidths.js';
import { useCellEdit } from '../table/useCellEdit.js';
import { useRowPages, type RowQuery } from '../table/useRowPages.js';
import { AttributeCellEditor } from './AttributeCellEditor.js';
import { AttributeTableHeader } from './AttributeTableHeader.js';
import { AttributeTableRows, type RevealRequest } from './AttributeTableRows.js';
import { AttributeTableToolbar } from './AttributeTableToolbar.js';
import './AttributeTable.css';

const NONE: ReadonlySet<number> = new Set();
const close = () => attributeTableStore.getState().close();

/** Selecting on the map scrolls the table to the first selected row it has loaded. */
function useRevealMapSelection(layerId: string, indexOfFid: (fid: number) => number | undefined): RevealRequest | null {
  const [reveal, setReveal] = useState<RevealRequest | null>(null);
  const lookup = useRef(indexOfFid);
  lookup.current = indexOfFid;
  useEffect(
    () =>
      selectionStore.subscribe((s, prev) => {
        if (s.fids === prev.fids || s.origin !== 'map' || s.layerId !== layerId || s.fids.size === 0) return;
        // The clicked feature first; for a box, the first selected row loaded (a few thousand checks at most).
        let index = s.anchor !== null && s.fids.has(s.anchor) ? lookup.current(s.anchor) : undefined;
        if (index === undefined) {
          let checked = 0;
          for (const fid of s.fids) {
            const i = lookup.current(fid);
            if (i !== undefined && (index === undefined || i < index)) index = i;
            if (++checked > 10_000) break;
          }
        }
        if (index !== undefined) setReveal((r) => ({ index: index!, seq: (r?.seq ?? 0) + 1 }));
      }),
    [layerId],
  );
  return reveal;
}

function AttributeTablePanel({ layer }: { layer: Layer }) {
  const { t } = useTranslation('table');
  const bridge = useBridge();
  // The data's identity: an edit or its undo changes the revision (or the source), and the rows are read again.
  const pages = useRowPages(layer.id, `${layer.source}\n${layer.editing?.revision ?? ''}`);
  const cellEdit = useCellEdit(layer.id, pages.fields);
  const { widths, totalWidth, resize } = useColumnWidths(pages.fields);
  const [scrollLeft, setScrollLeft] = useState(0);
  const [resetKey, setResetKey] = useState(0);
  const selected = useSelection((s) => (s.layerId === layer.id ? s.fids : NONE));
  const highlight = useSelection((s) => (s.layerId === layer.id ? s.highlight : null));
  const reveal = useRevealMapSelection(layer.id, pages.indexOfFid);
  const { query, apply } = pages;

  const run = useCallback(
    async (next: RowQuery) => {
      const error = await apply(next);
      if (!error) setResetKey((k) => k + 1);
      return error;
    },
    [apply],
  );

  function onRowClick(event: MouseEvent, row: AttributeRow, index: number) {
    const s = selectionStore.getState();
    const mine = s.layerId === layer.id;
    const outcome = rowClickOutcome(
      { fid: row.fid, index, toggle: event.ctrlKey || event.metaKey, range: event.shiftKey },
      { fids: mine ? s.fids : NONE, anchorIndex: mine && s.anchor !== null ? pages.indexOfFid(s.anchor) : undefined },
      pages.fidsBetween,
    );
    if (outcome.kind === 'replace') s.select(layer.id, outcome.fids, 'table', outcome.anchor);
    else if (outcome.kind === 'toggle') s.toggle(layer.id, outcome.fid, 'table');
    else if (outcome.additive) s.add(layer.id, outcome.fids, 'table');
    else s.select(layer.id, outcome.fids, 'table', s.anchor);
  }

  async function onSelectMatching() {
    if (!query.where) return;
    try {
      const { fids } = await bridge.call('layers/select-ids', { layerId: layer.id, where: query.where });
      selectionStore.getState().select(layer.id, fids, 'table');
    } catch (err) {
      console.warn('[table] select matching failed', err);
    }
  }

  const filtered = query.where !== null;
  const unfiltered = pages.unfilteredTotal ?? layer.info.featureCount;
  return (
    <section
      className="attribute-table"
      data-testid="attribute-table"
      data-layer-id={layer.id}
      data-layer-name={layer.name}
      aria-label={t('attributesOf', { name: layer.name })}
    >
      <AttributeTableToolbar
        layerName={layer.name}
        count={countText(pages.total, filtered, unfiltered)}
        appliedFilter={query.where ?? ''}
        onFilter={(where) => run({ ...query, where })}
        selectedCount={selected.size}
        canZoom={layer.kind === 'vector'}
        highlight={highlight}
        onZoomToSelection={() => highlight?.bbox && appStore.getState().requestFit(highlight.bbox)}
        onSelectMatching={() => void onSelectMatching()}
        onClearSelection={() => selectionStore.getState().clear()}
        onClose={close}
      />
      {cellEdit.error && (
        <div className="attribute-table__error" role="alert" data-testid="attribute-cell-error">
          {t('cellError', { error: cellEdit.error })}{' '}
          <button type="button" className="btn btn--small" onClick={cellEdit.dismissError}>
            {t('dismiss')}
          </button>
        </div>
      )}
      {pages.error && (
        <div className="attribute-table__error" role="alert">
          {t('readError', { error: pages.error })}
        </div>
      )}
      <div className="attribute-table__grid" role="table" aria-rowcount={pages.total ?? -1}>
        <AttributeTableHeader
          fields={pages.fields}
          widths={widths}
          totalWidth={totalWidth}
          sort={query.orderBy}
          scrollLeft={scrollLeft}
          onSort={(field) => void run({ ...query, orderBy: nextSort(query.orderBy, field) })}
          onResize={resize}
        />
        <AttributeTableRows
          pages={pages}
          fields={pages.fields}
          widths={widths}
          totalWidth={totalWidth}
          selected={selected}
          reveal={reveal}
          resetKey={resetKey}
          onRowClick={onRowClick}
          onScrollLeft={setScrollLeft}
          editing={cellEdit.target}
          onCellDoubleClick={cellEdit.begin}
          renderEditor={(value) => (
            <AttributeCellEditor
              value={value}
              busy={cellEdit.busy}
              onCommit={(text) => void cellEdit.commit(text)}
              onCancel={cellEdit.cancel}
            />
          )}
        />
        {pages.total === 0 && <p className="attribute-table__empty">{filtered ? t('noMatch') : t('noRows')}</p>}
      </div>
    </section>
  );
}

/**
 * The docked attribute table, under the map, for the layer it was opened for from the layer
 * panel. Virtualised and paged (see AttributeTableRows, table/useRowPages), so a layer of a
 * million rows opens as fast as one of a hundred. Closes itself when its layer goes.
 */
export function AttributeTable() {
  const layerId = useAttributeTable((s) => s.layerId);
  const layers = useAppStore(selectLayers);
  const layer = layerId ? layers.find((l) => l.id === layerId && l.kind !== 'raster') : undefined;
  if (!layer) return null;
  return <AttributeTablePanel key={layer.id} layer={layer} />;
}
