import { z } from 'zod';
import { BBox, LayerKind } from './layer.js';

/**
 * Issue 17: the QA report of a layer a call produced. The model reads it with the tool's result
 * and the tool card shows it, so it holds facts and warnings only: a check that found nothing
 * adds no field (no `invalidGeometries` when all are valid, no nodata share of 0).
 */

/** What a warning is about; the card and tests key on the code, the person reads the message. */
export const QaWarningCode = z.enum([
  /** No features, or a raster whose every pixel is nodata. */
  'empty_output',
  'invalid_geometries',
  /** The layer has no CRS: it cannot be placed on the map or measured. */
  'no_crs',
  /** A distance param (buffer, simplify tolerance) was applied to coordinates in degrees. */
  'distance_in_degrees',
  /** An area or length computed on coordinates in degrees (square degrees are not an area). */
  'area_in_degrees',
  /** The output lies outside every input's extent. */
  'extent_outside_inputs',
  /** The output covers far more ground than its inputs together. */
  'extent_much_larger',
  /** The check stopped early on a large layer: its counts cover a part of it. */
  'check_capped',
]);
export type QaWarningCode = z.infer<typeof QaWarningCode>;

export const QaWarning = z.object({ code: QaWarningCode, message: z.string() });
export type QaWarning = z.infer<typeof QaWarning>;

/** Features whose geometry is not valid (OGC simple features): how many, and the first ids. */
export const InvalidGeometries = z.object({
  count: z.number().int().min(0),
  /** At most 5 feature ids, for `layers_zoom_to` or an attribute filter. */
  firstIds: z.array(z.number().int()).max(5),
});

/** The share of a band's pixels that are nodata (or masked), from an exact count. */
export const BandNodata = z.object({
  band: z.number().int().min(1),
  /** 0–1, 4 decimals. */
  share: z.number().min(0).max(1),
  count: z.number().int().min(0),
});

/** The words the model gets with a report that has warnings. */
export const QA_MENTION = 'Mention these warnings to the person.';

export const QaReport = z.object({
  /** The layer's name in the project. */
  layer: z.string(),
  kind: LayerKind,
  /** Vector and table layers. */
  features: z.number().int().min(0).nullable().optional(),
  /** Rasters: width × height. */
  pixels: z.number().int().min(0).optional(),
  /** `EPSG:<code>`, else the CRS's name; null: none. */
  crs: z.string().nullable(),
  /** In EPSG:4326, rounded to 4 decimals. */
  extent: BBox.nullable().optional(),
  invalidGeometries: InvalidGeometries.optional(),
  /** Only the bands with nodata. */
  nodataShare: z.array(BandNodata).optional(),
  warnings: z.array(QaWarning),
  /** `QA_MENTION`, present exactly when there are warnings. */
  instruction: z.string().optional(),
});
export type QaReport = z.infer<typeof QaReport>;

/** A check that could not be made says so in one line; the call still succeeded. */
export const QaFailed = z.object({ layer: z.string(), failed: z.string() });
export type QaFailed = z.infer<typeof QaFailed>;

export const QaOutcome = z.union([QaReport, QaFailed]);
export type QaOutcome = z.infer<typeof QaOutcome>;

export function isQaFailed(outcome: QaOutcome): outcome is QaFailed {
  return 'failed' in outcome;
}

/** The `qa` list of a tool payload, as the card reads it: malformed items are dropped, not fatal. */
export function qaOutcomesOf(data: unknown): QaOutcome[] {
  const list = (data as { qa?: unknown } | null)?.qa;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const parsed = QaOutcome.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
