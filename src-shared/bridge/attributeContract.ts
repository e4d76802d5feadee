import { z } from 'zod';
import { BBox, FieldInfo } from '../domain/layer.js';

/**
 * The attribute table's part of the bridge: pages of rows and features by id, read by main
 * from the layer's source in the GIS worker. The renderer names a layer by id (never a file)
 * and a filter as an expression that main checks with the SQL allow-list (sql/sqlExpression).
 */

/** Rows per page the table may ask for at once. */
export const MAX_PAGE_ROWS = 500;
/** Features `layers/features` returns at most (highlight, identify, zoom to selection). */
export const MAX_FEATURES_BY_ID = 10_000;

export const CellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CellValue = z.infer<typeof CellValue>;

export const AttributeRow = z.object({ fid: z.number().int(), values: z.record(z.string(), CellValue) });
export type AttributeRow = z.infer<typeof AttributeRow>;

export const RowsQuery = z
  .object({
    layerId: z.string().min(1),
    offset: z.number().int().min(0),
    limit: z.number().int().min(1).max(MAX_PAGE_ROWS),
    /** Sort by one field; null keeps the source's order (by feature id). */
    orderBy: z
      .object({ field: z.string().min(1), descending: z.boolean() })
      .nullable()
      .default(null),
    /** A filter expression (a SQL WHERE clause on the layer's fields), or null for all rows. */
    where: z.string().max(2000).nullable().default(null),
  })
  // Nothing else may ride along (a path, a raw SQL statement): refused, not silently dropped.
  .strict();
export type RowsQuery = z.input<typeof RowsQuery>;

export const RowsPage = z.object({
  /** Rows matching the filter (all rows without one). */
  total: z.number().int(),
  fields: z.array(FieldInfo),
  offset: z.number().int(),
  rows: z.array(AttributeRow),
});
export type RowsPage = z.infer<typeof RowsPage>;

/** A GeoJSON feature in EPSG:4326 whose `id` is the feature id the table and tiles use. */
export const FeatureById = z.object({
  type: z.literal('Feature'),
  id: z.number().int(),
  geometry: z.unknown(),
  properties: z.record(z.string(), CellValue),
});
export type FeatureById = z.infer<typeof FeatureById>;

export const attributeMethods = {
  /** One page of attribute rows, sorted and filtered. */
  'layers/rows': { params: RowsQuery, result: RowsPage },
  /** Features by feature id, with geometry in EPSG:4326 and every attribute. Unknown ids are skipped. */
  'layers/features': {
    params: z.object({ layerId: z.string().min(1), fids: z.array(z.number().int()).max(MAX_FEATURES_BY_ID) }).strict(),
    result: z.object({ features: z.array(FeatureById), bbox: BBox.nullable() }),
  },
  /** Feature ids matching a filter (for "select where…"), up to MAX_FEATURES_BY_ID. */
  'layers/select-ids': {
    params: z.object({ layerId: z.string().min(1), where: z.string().max(2000) }).strict(),
    result: z.object({ fids: z.array(z.number().int()), total: z.number().int(), capped: z.boolean() }),
  },
} satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;
