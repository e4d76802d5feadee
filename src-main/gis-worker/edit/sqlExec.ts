import type { Dataset } from 'gdal-async';
import { BadInputError } from '../errors.js';

/**
 * SQL on a working copy through GDAL's own connection (so GeoPackage's triggers, spatial index
 * and GDAL's functions are there). gdal-async reports a statement that returns no result set —
 * every INSERT, UPDATE, DELETE, ALTER — by throwing an error with an empty message; a real
 * failure carries SQLite's words.
 */
export function exec(ds: Dataset, sql: string): void {
  try {
    ds.executeSQL(sql);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message === '') return;
    throw new BadInputError(tidy(message));
  }
}

export type Row = Record<string, unknown>;

/** The rows of a SELECT (or PRAGMA), as plain objects; `dialect` 'SQLITE' for non-SQL formats. */
export function rows(ds: Dataset, sql: string, dialect?: 'SQLITE'): Row[] {
  let result: ReturnType<Dataset['executeSQL']>;
  try {
    result = dialect ? ds.executeSQL(sql, undefined, dialect) : ds.executeSQL(sql);
  } catch (err) {
    throw new BadInputError(tidy(err instanceof Error ? err.message : String(err)));
  }
  // gdal-async releases the result set with the dataset.
  const out: Row[] = [];
  for (let f = result.features.first(); f; f = result.features.next()) out.push({ ...f.fields.toObject(), __fid: f.fid });
  return out;
}

/** SQLite's reason without GDAL's "In ExecuteSQL(): sqlite3_prepare_v2(<the whole statement>):" prefix. */
function tidy(message: string): string {
  const m = /sqlite3_\w+\([\s\S]*?\):\s*([\s\S]+)$/.exec(message);
  return (m ? m[1]! : message).trim();
}
