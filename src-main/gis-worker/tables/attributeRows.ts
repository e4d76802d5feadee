import type { Dataset, Feature, Layer } from 'gdal-async';
import type { AttributeRow, CellValue, FeatureById, RowsPage } from '../../../src-shared/bridge/attributeContract.js';
import type { BBox } from '../../../src-shared/domain/layer.js';
import { checkExpression, ExpressionError, quoteIdentifier as q } from '../../../src-shared/processing/sqlExpression.js';
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
  const table = await servedTable(args.source, { signal });
  const names = table.fields.map((f) => f.name);
  const where = whereClause(args.where, names);
  const order = args.orderBy ? `ORDER BY ${q(fieldName(args.orderBy.field, names))} ${args.orderBy.descending ? 'DESC' : 'ASC'}, ${q(table.fidColumn)}` : `ORDER BY ${q(table.fidColumn)}`;
  return withDataset(table, async (ds) => {
    const total = await count(ds, table, where, args.where);
    throwIfCancelled(signal);
    const columns = [q(table.fidColumn), ...names.map(q)].join(', ');
    const result = await runSql(ds, `SELECT ${columns} FROM ${q(table.table)}${where} ${order} LIMIT ${args.limit} OFFSET ${args.offset}`, args.where, names);
    const rows: AttributeRow[] = [];
    for (let f = await result.features.firstAsync(); f; f = await result.features.nextAsync()) rows.push({ fid: f.fid, values: cells(f, names) });
    return { total, fields: table.fields, offset: args.offset, rows };
  });
}

/** Features by id in EPSG:4326 with every attribute; ids that do not exist are skipped. */
export async function featuresById(source: string, fids: readonly number[], signal?: AbortSignal): Promise<{ features: FeatureById[]; bbox: BBox | null }> {
  const table = await servedTable(source, { signal });
  const names = table.fields.map((f) => f.name);
  const ids = [...new Set(fids.filter(Number.isSafeInteger))];
  if (!ids.length) return { features: [], bbox: null };
  return withDataset(table, async (ds) => {
    const columns = [q(table.fidColumn), ...names.map(q), ...(table.geomColumn ? [q(table.geomColumn)] : [])].join(', ');
    const result = await runSql(ds, `SELECT ${columns} FROM ${q(table.table)} WHERE ${q(table.fidColumn)} IN (${ids.join(',')})`, null, names);
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
export async function idsWhere(source: string, where: string, cap: number, signal?: AbortSignal): Promise<{ fids: number[]; total: number; capped: boolean }> {
  const table = await servedTable(source, { signal });
  const names = table.fields.map((f) => f.name);
  const clause = whereClause(where, names);
  return withDataset(table, async (ds) => {
    const total = await count(ds, table, clause, where);
    const result = await runSql(ds, `SELECT ${q(table.fidColumn)} FROM ${q(table.table)}${clause} ORDER BY ${q(table.fidColumn)} LIMIT ${cap}`, where, names);
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

async function count(ds: Dataset, table: ServedTable, where: string, whereText: string | null): Promise<number> {
  const result = await runSql(ds, `SELECT count(*) AS n FROM ${q(table.table)}${where}`, whereText, []);
  const n = (await result.features.firstAsync())?.fields.get('n');
  return typeof n === 'number' ? n : Number(n ?? 0);
}

async function runSql(ds: Dataset, sql: string, whereText: string | null, names: string[]): Promise<Layer> {
  try {
    return await ds.executeSQLAsync(sql);
  } catch (err) {
    if (whereText) throw filterError(whereText, gdalReason(err), names);
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
  return new BadInputError(`Invalid filter "${where}": ${reason}. Write an expression on the fields (e.g. pop > 1000 AND name LIKE 'A%'); fields: ${names.join(', ')}`);
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
