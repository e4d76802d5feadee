import { z } from 'zod';
import { LayerStyle } from '../style/styleModel.js';

/** [west, south, east, north] */
export const BBox = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type BBox = z.infer<typeof BBox>;

/** `table`: attributes without geometry (a CSV or spreadsheet of statistics); never drawn. */
export const LayerKind = z.enum(['vector', 'raster', 'table']);
export type LayerKind = z.infer<typeof LayerKind>;

export const CrsInfo = z.object({
  epsg: z.number().int().nullable(),
  name: z.string().nullable(),
  /** True when coordinates are degrees (a geographic CRS). */
  geographic: z.boolean(),
});
export type CrsInfo = z.infer<typeof CrsInfo>;

export const FieldInfo = z.object({ name: z.string(), type: z.string() });
export const BandInfo = z.object({
  index: z.number().int(),
  dataType: z.string(),
  nodata: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type BandInfo = z.infer<typeof BandInfo>;

/** What the GIS worker learns about a source when it opens it. */
export const LayerInfo = z.object({
  kind: LayerKind,
  driver: z.string(),
  crs: CrsInfo.nullable(),
  /** Extent in the source CRS. */
  extent: BBox.nullable(),
  /** Extent in EPSG:4326, for the map. */
  extent4326: BBox.nullable(),
  geometryType: z.string().nullable(),
  featureCount: z.number().int().nullable(),
  fields: z.array(FieldInfo),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  bands: z.array(BandInfo),
  /** Other layers in the same file, for multi-layer sources (GeoPackage, …). */
  sublayers: z.array(z.string()),
});
export type LayerInfo = z.infer<typeof LayerInfo>;

/**
 * A layer being edited (issue #14): its `source` is a working copy in the project's outputs
 * (a GeoPackage made at the first edit), and this remembers the file it was copied from, which
 * is never modified. `revision` grows with every change to the copy's data (edits and their
 * undo), so the map and the table fetch the data again.
 */
export const LayerEditing = z.object({
  originalSource: z.string(),
  originalSublayer: z.string().nullable(),
  revision: z.number().int().min(0),
});
export type LayerEditing = z.infer<typeof LayerEditing>;

export const Layer = z.object({
  id: z.string(),
  name: z.string(),
  /** File path, without the sublayer part. */
  source: z.string(),
  sublayer: z.string().nullable(),
  kind: LayerKind,
  /** 0 = bottom of the stack. */
  order: z.number().int(),
  visible: z.boolean(),
  opacity: z.number().min(0).max(1),
  style: LayerStyle,
  info: LayerInfo,
  /** Set while the layer shows its working copy; absent for a layer read from its own file. */
  editing: LayerEditing.optional(),
  /** Grows when the layer is pointed at other data outside editing ("Locate…"): data URLs carry it. */
  dataRevision: z.number().int().min(0).optional(),
});
export type Layer = z.infer<typeof Layer>;
