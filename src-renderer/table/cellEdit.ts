import type { CellValue } from '../../src-shared/bridge/attributeContract.js';

/**
 * What a person typed into a table cell, as the value `edit.update_features` sets: numbers for
 * numeric fields (whole numbers for integer ones), text for the rest, and an empty cell as
 * null. GDAL names field types `integer`, `integer64`, `real`, `string`, `date`, ….
 */
export function parseCellInput(text: string, fieldType: string): { value: CellValue } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  if (/real|float|double|decimal|numeric/i.test(fieldType) || /int/i.test(fieldType)) {
    const n = Number(trimmed);
    if (!Number.isFinite(n)) return { error: `"${trimmed}" is not a number.` };
    if (/int/i.test(fieldType) && !Number.isInteger(n)) return { error: `"${trimmed}" is not a whole number.` };
    return { value: n };
  }
  // Text keeps what was typed, spaces included; only an all-blank cell means "no value".
  return { value: text };
}

/** The text a cell's editor starts with: the value as typed, nothing for null. */
export function cellEditText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}
