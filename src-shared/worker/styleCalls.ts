import { z } from 'zod';
import { ClassMethod } from '../style/classify.js';
import { CategoryValue } from '../style/vectorStyleModel.js';
import { workerCall } from './callSpec.js';
import { Source } from './layerCalls.js';

/*
 * The style family (gis-worker/functions/styleFunctions.ts). Classes are always computed
 * from the data, in the worker, never guessed by the caller.
 */

/** Reads a numeric field and classifies it. */
export const ClassifyArgs = z.object({
  source: Source,
  field: z.string().min(1),
  method: ClassMethod,
  classes: z.number().int().min(1).max(32),
  /**
   * Only features where these fields hold numbers too count (a bivariate map classifies each
   * field over the features that have both values: the only ones it colours by class).
   */
  alsoNumeric: z.array(z.string().min(1)).max(8).optional(),
});
export const ClassifyResult = z.object({
  breaks: z.array(z.number()),
  /** Features per class, by the same rule as the map. */
  counts: z.array(z.number().int()),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Features with a number in the field (and in each `alsoNumeric` field). */
  valid: z.number().int(),
  /** Features with NULL (or no number) in the field, or in one of the `alsoNumeric` fields. */
  nulls: z.number().int(),
});
export type ClassifyResult = z.infer<typeof ClassifyResult>;

/** The distinct values of a field with their feature counts, most frequent first. */
export const UniqueValuesArgs = z.object({
  source: Source,
  field: z.string().min(1),
  limit: z.number().int().min(1).max(1000),
});
export const UniqueValuesResult = z.object({
  values: z.array(z.object({ value: CategoryValue, count: z.number().int() })),
  /** Distinct values in all (more than `values` holds when it was cut at `limit`). */
  distinct: z.number().int(),
  /** Features whose value was left out by the limit. */
  otherFeatures: z.number().int(),
});
export type UniqueValuesResult = z.infer<typeof UniqueValuesResult>;

/** How many features each rule takes (first match wins), and how many none takes. */
export const CountRulesArgs = z.object({
  source: Source,
  filters: z.array(z.string().min(1)).min(1).max(50),
});
export const CountRulesResult = z.object({
  counts: z.array(z.number().int()),
  unmatched: z.number().int(),
});
export type CountRulesResult = z.infer<typeof CountRulesResult>;

/** The lower/upper percent cumulative cut of raster bands, from GDAL's histogram. */
export const RasterCutArgs = z.object({
  source: Source,
  bands: z.array(z.number().int().min(1)).min(1).max(16),
  lower: z.number().min(0).max(100),
  upper: z.number().min(0).max(100),
});
export const RasterCutResult = z.object({
  bands: z.array(
    z.object({
      band: z.number().int(),
      /** null when the band has no valid pixel. */
      min: z.number().nullable(),
      max: z.number().nullable(),
      dataMin: z.number().nullable(),
      dataMax: z.number().nullable(),
      validPixels: z.number().int(),
    }),
  ),
});
export type RasterCutResult = z.infer<typeof RasterCutResult>;

/** One point per feature inside it (its widest part), with the given fields. Result: GeoJSON text, EPSG:4326. */
export const LabelPointsArgs = z.object({
  source: Source,
  fields: z.array(z.string().min(1)).max(50),
});

/** The style family: what the style tools read from the data. */
export const STYLE_CALLS = {
  'style.classify': workerCall({ params: ClassifyArgs, result: ClassifyResult, doing: (p) => `classifying ${p.field} of ${p.source}` }),
  'style.unique_values': workerCall({
    params: UniqueValuesArgs,
    result: UniqueValuesResult,
    doing: (p) => `reading the values of ${p.field} in ${p.source}`,
  }),
  'style.count_rules': workerCall({ params: CountRulesArgs, result: CountRulesResult }),
  'style.raster_cut': workerCall({ params: RasterCutArgs, result: RasterCutResult, doing: (p) => `reading the histogram of ${p.source}` }),
  /** GeoJSON text in EPSG:4326. */
  'style.label_points': workerCall({ params: LabelPointsArgs, result: z.string() }),
};
