import type { Layer } from 'gdal-async';
import { quoteIdentifier } from '../../../src-shared/sql/quote.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { openSource, type OpenedVector } from '../openSource.js';

/**
 * Reading attribute values for classification, through GDAL's SQLite dialect (it works on
 * every vector format GDAL reads, and only the asked columns travel). The source is opened
 * read-only and closed again.
 */

/** The shared SQL identifier quoting, under the name the style modules import. */

/** Opens a vector source and checks the field exists, naming the fields when it does not. */
export async function withVector<T>(source: string, fields: readonly string[], fn: (opened: OpenedVector) => Promise<T>): Promise<T> {
  const opened = await openSource(source);
  try {
    if (opened.kind !== 'vector') throw new BadInputError(`${opened.path} is a raster; it has no attribute fields`);
    const names: string[] = [];
    opened.layer.fields.forEach((f) => {
      names.push(f.name);
    });
    for (const field of fields) {
      if (!names.includes(field))
        throw new BadInputError(`${opened.layer.name} has no field '${field}'; its fields are: ${names.join(', ') || '(none)'}`);
    }
    return await fn(opened);
  } finally {
    opened.ds.close();
  }
}

/** Runs a SELECT (SQLite dialect) and hands each row's fields to `row`, checking for cancel as it goes. */
export async function eachRow(opened: OpenedVector, sql: string, row: (values: unknown[]) => void, signal?: AbortSignal): Promise<void> {
  let result: Layer;
  try {
    result = await opened.ds.executeSQLAsync(sql, undefined, 'SQLite');
  } catch (err) {
    throw new BadInputError(`Cannot read ${opened.layer.name}: ${gdalReason(err, opened.path)}`);
  }
  // The result set is freed with the dataset (gdal-async has no ReleaseResultSet).
  {
    const count = result.fields.count();
    let n = 0;
    for (let f = result.features.first(); f; f = result.features.next()) {
      const values: unknown[] = [];
      for (let i = 0; i < count; i++) values.push(f.fields.get(i));
      row(values);
      // A long read yields now and then, so a cancel message can arrive.
      if (++n % 20_000 === 0) {
        await new Promise((r) => setImmediate(r));
        throwIfCancelled(signal);
      }
    }
  }
}

/** A feature value as a category: numbers, text and booleans stay; dates and the like become text. */
export function categoryValue(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object' && v !== null && 'year' in v) {
    const d = v as { year: number; month?: number; day?: number };
    return `${d.year}-${String(d.month ?? 1).padStart(2, '0')}-${String(d.day ?? 1).padStart(2, '0')}`;
  }
  return String(v);
}

/** A value read as a number: numbers and numeric text; NaN for anything else (NULL included). */
export function asNumber(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

/**
 * The numeric values of a field, ascending, and how many features have none. With
 * `alsoNumeric`, a feature counts only when those fields hold numbers too (else it is a null).
 */
export async function numericValues(
  opened: OpenedVector,
  field: string,
  signal?: AbortSignal,
  alsoNumeric: readonly string[] = [],
): Promise<{ sorted: Float64Array; nulls: number }> {
  const numbers: number[] = [];
  let nulls = 0;
  const columns = [field, ...alsoNumeric].map(quoteIdentifier).join(', ');
  await eachRow(
    opened,
    `SELECT ${columns} FROM ${quoteIdentifier(opened.layer.name)}`,
    (values) => {
      const n = asNumber(values[0]);
      if (Number.isFinite(n) && values.slice(1).every((v) => Number.isFinite(asNumber(v)))) numbers.push(n);
      else nulls++;
    },
    signal,
  );
  const sorted = Float64Array.from(numbers).sort();
  return { sorted, nulls };
}
