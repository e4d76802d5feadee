import type { CellValue, RowsPage } from '../../src-shared/bridge/attributeContract.js';
import { i18n } from '../i18n/i18n.js';

/** Text and sizes of the attribute table: counts, cells, column widths, the sort cycle. */

/** A column of the table: a field of the layer, name and GDAL type. */
export type Field = RowsPage['fields'][number];

export type SortOrder = { field: string; descending: boolean } | null;

/** A header click: none → ascending → descending → none; another column starts ascending. */
export function nextSort(current: SortOrder, field: string): SortOrder {
  if (!current || current.field !== field) return { field, descending: false };
  return current.descending ? null : { field, descending: true };
}

/** "100 rows", or with a filter "11 of 100 match" (the unfiltered count when known). */
export function countText(total: number | null, filtered: boolean, unfilteredTotal: number | null): string {
  if (total === null) return i18n.t('table:loading');
  const n = total.toLocaleString('en');
  if (!filtered) return i18n.t('table:rows', { count: total, n });
  return unfilteredTotal === null
    ? i18n.t('table:match', { n })
    : i18n.t('table:matchOf', { n, total: unfilteredTotal.toLocaleString('en') });
}

/** Cells are one line: numbers as they come (no rounding hides a value), null shown as such. */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

const NUMERIC = /int|real|float|double|decimal|numeric/i;

export function isNumericType(type: string): boolean {
  return NUMERIC.test(type);
}

export const MIN_COLUMN_WIDTH = 48;
export const MAX_COLUMN_WIDTH = 800;

/** A first width from the field's name and type; the person drags it from there. */
export function defaultColumnWidth(name: string, type: string): number {
  const base = isNumericType(type) ? 96 : /date|time/i.test(type) ? 150 : 140;
  return clampWidth(Math.max(base, name.length * 8 + 28));
}

export function clampWidth(width: number): number {
  return Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));
}
