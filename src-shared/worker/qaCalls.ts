import { z } from 'zod';
import { workerCall } from './callSpec.js';

/** A vector layer (or a table: no geometry) as the check read it. */
const VectorCheck = z.object({
  kind: z.literal('vector'),
  /** Features read: all of them unless `capped`. */
  read: z.number().int().min(0),
  hasGeometry: z.boolean(),
  /** Invalid geometries among those read; at most 5 ids, in reading order. */
  invalid: z.object({ count: z.number().int().min(0), firstIds: z.array(z.number().int()).max(5) }),
  capped: z.boolean(),
});

/** A raster: per band, the pixels counted and how many of them are nodata (or masked). */
const RasterCheck = z.object({
  kind: z.literal('raster'),
  width: z.number().int().min(0),
  height: z.number().int().min(0),
  bands: z.array(z.object({ band: z.number().int().min(1), counted: z.number().int().min(0), nodata: z.number().int().min(0) })),
  capped: z.boolean(),
});

export const LayerCheck = z.discriminatedUnion('kind', [VectorCheck, RasterCheck]);
export type LayerCheck = z.infer<typeof LayerCheck>;

/** The qa family (issue 17): what the QA report of a produced layer needs read from its data. */
export const QA_CALLS = {
  /**
   * Reads a layer once for the checks no description holds: invalid geometries (GEOS, per
   * feature) or each band's exact nodata count. Huge layers stop at `maxFeatures` features /
   * `maxPixels` pixels per band or after `maxMs`, and say so (`capped`).
   */
  'qa.check_layer': workerCall({
    params: z.object({
      source: z.string().min(1),
      maxFeatures: z.number().int().min(1).default(200_000),
      maxPixels: z.number().int().min(1).default(100_000_000),
      maxMs: z.number().int().min(1).default(10_000),
    }),
    result: LayerCheck,
    doing: (p) => `checking ${p.source} for the QA report`,
  }),
};
