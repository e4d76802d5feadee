import { z } from 'zod';
import { BBox, LayerInfo } from '../domain/layer.js';
import { workerCall } from './callSpec.js';
import { Source } from './layerCalls.js';

/** A loose answer the tool passes to the model as it is (its keys vary with the source). */
const Facts = z.record(z.string(), z.unknown());
/** Project layers exposed to SQL as tables, by their names in the project. */
const Tables = z.array(z.object({ name: z.string().min(1), source: Source })).max(200);
const Truncation = {
  truncated: z.boolean(),
  truncated_by: z.enum(['limit', 'size']).nullable(),
};

/** The inspect family: reads that answer the model's questions about data. */
export const INSPECT_CALLS = {
  /** CRS, extents, fields and counts, or size, pixel size and band statistics. */
  'inspect.layer_details': workerCall({ params: z.object({ source: Source }), result: Facts }),
  /** The extent in another CRS (`crs`), or in the source's own when null. */
  'inspect.extent': workerCall({
    params: z.object({ source: Source, crs: z.string().min(1).nullable().default(null) }),
    result: z.object({ extent: BBox, crs: z.string(), native_crs: z.unknown() }),
  }),
  /** Features by an attribute and/or spatial filter, as GeoJSON in EPSG:4326, capped by count and size. */
  'inspect.query_features': workerCall({
    params: z.object({
      source: Source,
      where: z.string().min(1).max(4000).nullable().default(null),
      bbox: BBox.nullable().default(null),
      geometry: z
        .union([z.string().min(1), z.record(z.string(), z.unknown())])
        .nullable()
        .default(null),
      filter_crs: z.string().min(1).default('EPSG:4326'),
      fields: z.array(z.string()).nullable().default(null),
      limit: z.number().int().min(1).max(5000).default(50),
      include_geometry: z.boolean().default(true),
      max_chars: z.number().int().min(1000).max(2_000_000).default(60_000),
    }),
    result: z.object({
      type: z.literal('FeatureCollection'),
      features: z.array(z.unknown()),
      total_count: z.number(),
      returned: z.number(),
      ...Truncation,
      crs: z.string().nullable(),
    }),
  }),
  /** Band values at points given in `crs`. */
  'inspect.sample_raster': workerCall({
    params: z.object({
      source: Source,
      points: z
        .array(z.tuple([z.number(), z.number()]))
        .min(1)
        .max(10_000),
      crs: z.string().min(1).default('EPSG:4326'),
      bands: z.array(z.number().int()).min(1).nullable().default(null),
    }),
    result: z.object({
      crs: z.string(),
      bands: z.array(z.number()),
      samples: z.array(
        z.object({
          x: z.number(),
          y: z.number(),
          pixel: z.tuple([z.number(), z.number()]).nullable(),
          values: z.record(z.string(), z.number().nullable()),
        }),
      ),
    }),
  }),
  /** Band statistics for the whole raster, or per polygon of `zones`. */
  'inspect.raster_stats': workerCall({
    params: z.object({
      source: Source,
      bands: z.array(z.number().int()).min(1).nullable().default(null),
      zones: Source.nullable().default(null),
      zone_field: z.string().min(1).nullable().default(null),
      max_zones: z.number().int().min(1).max(10_000).default(500),
      all_touched: z.boolean().default(false),
    }),
    result: Facts,
  }),
  /** A file (its layers) or a folder (the GIS files in it), before anything is loaded. */
  'inspect.describe_path': workerCall({
    params: z.object({ path: z.string().min(1) }),
    result: Facts,
    doing: (p) => `describing ${p.path}`,
  }),
  /** One checked SELECT over the project's layers (SQLite dialect). */
  'inspect.sql': workerCall({
    params: z.object({
      sql: z.string().min(1).max(20_000),
      tables: Tables,
      limit: z.number().int().min(1).max(5000).default(100),
      include_geometry: z.boolean().default(false),
      max_chars: z.number().int().min(1000).max(2_000_000).default(60_000),
    }),
    result: z.object({
      columns: z.array(z.string()),
      rows: z.array(z.record(z.string(), z.unknown())),
      returned: z.number(),
      total_rows: z.number(),
      ...Truncation,
      geometry: z.string(),
      skipped_layers: z.array(z.string()).optional(),
    }),
  }),
  /** The rows of one checked SELECT written to a new GeoPackage layer (`path|layername=NAME`). */
  'inspect.save_query': workerCall({
    params: z.object({ sql: z.string().min(1).max(20_000), tables: Tables, output: z.string().min(1) }),
    result: z.object({ output: z.string(), featureCount: z.number(), notes: z.array(z.string()), info: LayerInfo }),
    doing: (p) => `saving a query into ${p.output}`,
    writes: (p) => p.output,
  }),
};
