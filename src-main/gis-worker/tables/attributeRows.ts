import type { Dataset, Feature, Layer } from 'gdal-async';
import type { AttributeRow, CellValue, FeatureById, RowsPage } from '../../../src-shared/bridge/attributeContract.js';
import type { BBox } from '../../../src-shared/domain/layer.js';
import { checkExpression, ExpressionError } from '../../../src-shared/processing/sqlExpression.js';
import { quoteIdentifier as q } from '../../../src-shared/sql/quote.js';
import { wgs84 } from '../crs.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { jsonFieldValue } from '../inspect/fieldValues.js';
import { servedTable, type ServedTable } from './servedTable.js';

/**
 * What the attribute table reads: pages of rows, features by id and the ids matching a filter,
 * all run by SQLite on the served GeoPackage table (servedTable.ts), so a page of a
 * million-row layer costs what SQLite needs to step to it, not a read of the whole layer.
 * Filters are expressions checked against the allow-list and rewritten from their tokens
 * (src-shared/processing/sqlExpression.ts) before they reach SQL.
 */

export interface RowsArgs {
  source: string;
  offset: number;
  limit: number;
  orderBy: { field: string; descending: boolean } | null;
  where: string | null;
}

export async function attributeRows(args: RowsArgs, signal?: AbortSignal): Promise<RowsPage> {
  refuseBadSyntax(args.where);
  const table = await servedTable(args.source, { signal });
  const names = table.fields.map((f) => f.name);
  const where = whereClause(args.where, names);
  const order = args.orderBy
    ? `ORDER BY ${q(fieldName(args.orderBy.field, names))} ${args.orderBy.descending ? 'DESC' : 'ASC'}, ${q(table.fidColumn)}`
    : `ORDER BY ${q(table.fidColumn)}`;
  return withDataset(table, async (ds) => {
    const total = where ? await count(ds, table, where, args.where) : table.count;
    throwIfCancelled(signal);
    const columns = [q(table.fidColumn), ...names.map(q)].join(', ');
    // Unsorted and unfiltered over ids without gaps (what GDAL writes), row i is id min + i: the
    // page is a primary-key lookup, not a walk over the rows before it (OFFSET steps through
    // every one, about 0.1 s per million).
    const range = table.fidRange;
    const dense = !where && !args.orderBy && range !== null && range.max - range.min + 1 === table.count;
    const page = dense
      ? `SELECT ${columns} FROM ${q(table.table)} WHERE ${q(table.fidColumn)} >= ${range.min + args.offset} ${order} LIMIT ${args.limit}`
      : `SELECT ${columns} FROM ${q(table.table)}${where} ${order} LIMIT ${args.limit} OFFSET ${args.offset}`;
    const result = await runSql(ds, page, args.where, names);
    const rows: AttributeRow[] = [];
    for (let f = await result.features.firstAsync(); f; f = await result.features.nextAsync())
      rows.push({ fid: f.fid, values: cells(f, names) });
    return { total, fields: table.fields, offset: args.offset, rows };
  });
}

/** Features by id in EPSG:4326 with every attribute; ids that do not exist are skipped. */
export async function featuresById(
  source: string,
  fids: readonly number[],
  signal?: AbortSignal,
): Promise<{ features: FeatureById[]; bbox: BBox | null }> {
  const table = await servedTable(source, { signal });
  const names = table.fields.map((f) => f.name);
  const ids = [...new Set(fids.filter(Number.isSafeInteger))];
  if (!ids.length) return { features: [], bbox: null };
  return withDataset(table, async (ds) => {
    const columns = [q(table.fidColumn), ...names.map(q), ...(table.geomColumn ? [q(table.geomColumn)] : [])].join(', ');
    const result = await runSql(
      ds,
      `SELECT ${columns} FROM ${q(table.table)} WHERE ${q(table.fidColumn)} IN (${ids.join(',')})`,
      null,
      names,
    );
    const toWgs84 = table.srsWkt ? new gdal.CoordinateTransformation(gdal.SpatialReference.fromWKT(table.srsWkt), wgs84()) : null;
    const features: FeatureById[] = [];
    const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
    for (let f = await result.features.firstAsync(); f; f = await result.features.nextAsync()) {
      let geometry: unknown = null;
      const g = f.getGeometry();
      if (g) {
        if (toWgs84) g.transform(toWgs84);
        const e = g.getEnvelope();
        box[0] = Math.min(box[0], e.minX);
        box[1] = Math.min(box[1], e.minY);
        box[2] = Math.max(box[2], e.maxX);
        box[3] = Math.max(box[3], e.maxY);
        geometry = JSON.parse(g.toJSON());
      }
      features.push({ type: 'Feature', id: f.fid, geometry, properties: cells(f, names) });
      if (features.length % 500 === 0) throwIfCancelled(signal);
    }
    return { features, bbox: Number.isFinite(box[0]) ? box : null };
  });
}

/** Ids of the features matching a filter, at most `cap`, and how many match in all. */
export async function idsWhere(
  source: string,
  where: string,
  cap: number,
  signal?: AbortSignal,
): Promise<{ fids: number[]; total: number; capped: boolean }> {
  refuseBadSyntax(where);
  const table = await servedTable(source, { signal });
  const names = table.fields.map((f) => f.name);
  const clause = whereClause(where, names);
  return withDataset(table, async (ds) => {
    const total = await count(ds, table, clause, where);
    const result = await runSql(
      ds,
      `SELECT ${q(table.fidColumn)} FROM ${q(table.table)}${clause} ORDER BY ${q(table.fidColumn)} LIMIT ${cap}`,
      where,
      names,
    );
    const fids: number[] = [];
    for (let f = await result.features.firstAsync(); f; f = await result.features.nextAsync()) fids.push(f.fid);
    return { fids, total, capped: total > fids.length };
  });
}

async function withDataset<T>(table: ServedTable, read: (ds: Dataset) => Promise<T>): Promise<T> {
  const ds = await gdal.openAsync(table.path, 'r');
  try {
    return await read(ds);
  } finally {
    ds.close();
  }
}

/**
 * Matches of a filter, counted once per table and filter: scrolling asks for a page at a time
 * and each would otherwise count a million rows again. A served table is fixed for its source's
 * identity (a changed file is a new ServedTable), so the count stays true.
 */
const counts = new WeakMap<ServedTable, Map<string, number>>();

async function count(ds: Dataset, table: ServedTable, where: string, whereText: string | null): Promise<number> {
  let known = counts.get(table);
  if (!known) counts.set(table, (known = new Map()));
  const cached = known.get(where);
  if (cached !== undefined) return cached;
  const result = await runSql(ds, `SELECT count(*) AS n FROM ${q(table.table)}${where}`, whereText, []);
  const value = (await result.features.firstAsync())?.fields.get('n');
  const n = typeof value === 'number' ? value : Number(value ?? 0);
  if (known.size > 100) known.clear();
  known.set(where, n);
  return n;
}

async function runSql(ds: Dataset, sql: string, whereText: string | null, names: string[]): Promise<Layer> {
  try {
    return await ds.executeSQLAsync(sql);
  } catch (err) {
    if (whereText) throw filterError(whereText, gdalReason(err), names);
    throw err;
  }
}

/**
 * A filter's syntax and functions are judged before the source is touched: a refused one must
 * not first cost a copy of the layer into the cache. Its field names are checked once the
 * table's fields are known (whereClause).
 */
function refuseBadSyntax(where: string | null): void {
  if (!where?.trim()) return;
  try {
    checkExpression(where);
  } catch (err) {
    if (err instanceof ExpressionError)
      throw new BadInputError(
        `Invalid filter "${where}": ${err.message}. Write an expression on the fields (e.g. pop > 1000 AND name LIKE 'A%').`,
      );
    throw err;
  }
}

function whereClause(where: string | null, names: string[]): string {
  if (!where?.trim()) return '';
  try {
    return ` WHERE ${checkExpression(where, names).sql}`;
  } catch (err) {
    if (err instanceof ExpressionError) throw filterError(where, err.message, names);
    throw err;
  }
}

function fieldName(name: string, names: string[]): string {
  const found = names.find((n) => n === name) ?? names.find((n) => n.toLowerCase() === name.toLowerCase());
  if (!found) throw new BadInputError(`No field '${name}' in this layer; its fields are: ${names.join(', ')}`);
  return found;
}

function filterError(where: string, reason: string, names: string[]): BadInputError {
  return new BadInputError(
    `Invalid filter "${where}": ${reason}. Write an expression on the fields (e.g. pop > 1000 AND name LIKE 'A%'); fields: ${names.join(', ')}`,
  );
}

function cells(f: Feature, names: string[]): Record<string, CellValue> {
  const all = f.fields.toObject() as Record<string, unknown>;
  const out: Record<string, CellValue> = {};
  for (const name of names) {
    const v = jsonFieldValue(all[name]);
    out[name] = v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : JSON.stringify(v);
  }
  return out;
}
