import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { AttributeRow, CellValue } from '../../src-shared/bridge/attributeContract.js';
import type { CellTarget } from '../table/useCellEdit.js';
import { cellText, isNumericType, type Field } from '../table/tableFormat.js';
import type { RowPages } from '../table/useRowPages.js';
import { scrollHeightFor, scrollPerRow, scrollTopToReveal, visibleRows } from '../table/virtualScroll.js';

/** One fixed row height (px), matching `.attribute-row` in AttributeTable.css. */
export const ROW_HEIGHT = 24;
/** Scrolling settles this long before pages are asked for, so a fast drag does not fetch every page it passes. */
const FETCH_SETTLE_MS = 60;

export interface RevealRequest {
  index: number;
  /** A new number for every request, so the same row can be revealed twice. */
  seq: number;
}

interface Props {
  pages: RowPages;
  fields: readonly Field[];
  widths: Readonly<Record<string, number>>;
  totalWidth: number;
  selected: ReadonlySet<number>;
  reveal: RevealRequest | null;
  /** Bumped when the rows are replaced (new sort or filter): the view goes back to the top. */
  resetKey: number;
  onRowClick(event: MouseEvent, row: AttributeRow, index: number): void;
  onScrollLeft(left: number): void;
  /** The cell whose editor shows, if any. */
  editing: CellTarget | null;
  /** A double-click on a cell asks to edit it. */
  onCellDoubleClick(target: CellTarget): void;
  renderEditor(value: CellValue | undefined): ReactNode;
}

/**
 * The table's body, virtualised: only the rows in view (and a few around) are in the DOM,
 * placed absolutely in a spacer whose height stands for all rows (scaled past the browser's
 * limit, see table/virtualScroll.ts). The scroll container states `data-row-count` and
 * `data-scroll-per-row`: `scrollTop = index × scrollPerRow` puts row `index` at the top.
 */
export function AttributeTableRows({
  pages,
  fields,
  widths,
  totalWidth,
  selected,
  reveal,
  resetKey,
  onRowClick,
  onScrollLeft,
  editing,
  onCellDoubleClick,
  renderEditor,
}: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(0);
  const rowCount = pages.total ?? 0;
  const geometry = { rowCount, rowHeight: ROW_HEIGHT, viewportHeight };
  const view = visibleRows(scrollTop, geometry);
  const { ensure } = pages;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewportHeight(el.clientHeight));
    observer.observe(el);
    setViewportHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (view.last < view.first) return;
    const timer = setTimeout(() => ensure(view.first, view.last), FETCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [ensure, view.first, view.last, pages.version]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.scrollTop = 0;
    setScrollTop(0);
  }, [resetKey]);

  useEffect(() => {
    const el = ref.current;
    if (!el || !reveal) return;
    el.scrollTop = scrollTopToReveal(reveal.index, el.scrollTop, { rowCount, rowHeight: ROW_HEIGHT, viewportHeight: el.clientHeight });
  }, [reveal]); // only a new request scrolls: rowCount is read, not watched

  const rows = [];
  for (let index = view.first; index <= view.last; index++) {
    const row = pages.rowAt(index);
    const top = view.rowTop(index);
    if (!row) {
      rows.push(
        <div
          key={`loading-${index}`}
          className="attribute-row attribute-row--loading"
          style={{ top, width: totalWidth }}
          aria-busy="true"
        />,
      );
      continue;
    }
    const isSelected = selected.has(row.fid);
    rows.push(
      <div
        key={row.fid}
        role="row"
        aria-selected={isSelected}
        className={`attribute-row${isSelected ? ' attribute-row--selected' : ''}${index % 2 ? ' attribute-row--odd' : ''}`}
        data-testid="attribute-row"
        data-fid={row.fid}
        data-index={index}
        style={{ top, width: totalWidth }}
        onMouseDown={(e) => e.shiftKey && e.preventDefault() /* no text selection on shift-click */}
        onClick={(e) => onRowClick(e, row, index)}
      >
        {fields.map((field) => {
          const value = row.values[field.name];
          const isEditing = editing?.fid === row.fid && editing.field === field.name;
          return (
            <div
              key={field.name}
              role="cell"
              className={`attribute-cell${isNumericType(field.type) ? ' attribute-cell--number' : ''}${value === null ? ' attribute-cell--null' : ''}${isEditing ? ' attribute-cell--editing' : ''}`}
              style={{ width: widths[field.name] }}
              title={cellText(value)}
              data-field={field.name}
              onDoubleClick={() => onCellDoubleClick({ fid: row.fid, field: field.name })}
            >
              {isEditing ? renderEditor(value) : cellText(value)}
            </div>
          );
        })}
      </div>,
    );
  }

  return (
    <div
      ref={ref}
      className="attribute-table__scroll"
      data-testid="attribute-table-scroll"
      data-row-count={rowCount}
      data-row-height={ROW_HEIGHT}
      data-scroll-per-row={scrollPerRow(geometry)}
      role="rowgroup"
      onScroll={(e) => {
        setScrollTop(e.currentTarget.scrollTop);
        onScrollLeft(e.currentTarget.scrollLeft);
      }}
    >
      <div className="attribute-table__spacer" style={{ height: scrollHeightFor(geometry), width: totalWidth }}>
        {rows}
      </div>
    </div>
  );
}
