import { useRef, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { clampWidth, type Field, type SortOrder } from '../table/tableFormat.js';

interface Props {
  fields: readonly Field[];
  widths: Readonly<Record<string, number>>;
  totalWidth: number;
  sort: SortOrder;
  /** The body's horizontal scroll: the header moves with it. */
  scrollLeft: number;
  onSort(field: string): void;
  onResize(field: string, width: number): void;
}

const sortState = (sort: SortOrder, field: string) => (sort?.field !== field ? 'none' : sort.descending ? 'desc' : 'asc');
const ARROWS = { none: '', asc: '▲', desc: '▼' } as const;

/**
 * Column headers: a click sorts (ascending, descending, none); dragging a header's right edge
 * resizes the column. The header sits outside the scrolling body and follows its scrollLeft.
 */
export function AttributeTableHeader({ fields, widths, totalWidth, sort, scrollLeft, onSort, onResize }: Props) {
  const { t } = useTranslation('table');
  const drag = useRef<{ field: string; startX: number; startWidth: number } | null>(null);

  function onResizeStart(e: PointerEvent<HTMLSpanElement>, field: string) {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { field, startX: e.clientX, startWidth: widths[field] ?? 100 };
  }
  function onResizeMove(e: PointerEvent<HTMLSpanElement>) {
    const d = drag.current;
    if (d) onResize(d.field, clampWidth(d.startWidth + e.clientX - d.startX));
  }
  function onResizeEnd(e: PointerEvent<HTMLSpanElement>) {
    drag.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  }

  return (
    <div className="attribute-table__columns" role="row">
      <div className="attribute-table__columns-inner" style={{ width: totalWidth, transform: `translateX(${-scrollLeft}px)` }}>
        {fields.map((field) => {
          const state = sortState(sort, field.name);
          return (
            <div
              key={field.name}
              role="columnheader"
              aria-sort={state === 'none' ? 'none' : state === 'asc' ? 'ascending' : 'descending'}
              className="attribute-column"
              data-testid="attribute-column"
              data-field={field.name}
              data-sort={state}
              style={{ width: widths[field.name] }}
            >
              <button
                type="button"
                className="attribute-column__sort"
                title={t('sortTitle', { name: field.name, type: field.type })}
                onClick={() => onSort(field.name)}
              >
                <span className="attribute-column__name">{field.name}</span>
                <span className="attribute-column__arrow" aria-hidden="true">
                  {ARROWS[state]}
                </span>
              </button>
              <span
                className="attribute-column__resize"
                data-testid="attribute-column-resize"
                role="separator"
                aria-orientation="vertical"
                aria-label={t('resize', { name: field.name })}
                onPointerDown={(e) => onResizeStart(e, field.name)}
                onPointerMove={onResizeMove}
                onPointerUp={onResizeEnd}
                onPointerCancel={onResizeEnd}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
