import { z } from 'zod';
import { BBox } from '../../../src-shared/domain/layer.js';
import { BadInputError } from '../errors.js';
import { describePath } from '../inspect/describePath.js';
import { layerDetails, sourceExtent } from '../inspect/layerDetails.js';
import { queryFeatures } from '../inspect/queryFeatures.js';
import { rasterStats } from '../inspect/rasterStats.js';
import { sampleRaster } from '../inspect/sampleRaster.js';
import { runSql, saveSql } from '../inspect/sqlQuery.js';
import type { WorkerFunction } from './types.js';

/** Arguments come from main, which trusts the model's values no more than we do. */
function parse<S extends z.ZodType>(schema: S, args: unknown, fn: string): z.output<S> {
  const r = schema.safeParse(args);
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ');
    throw new BadInputError(`Invalid arguments for ${fn}: ${problems}`);
  }
  return r.data;
}

const Source = z.string().min(1);
const Tables = z.array(z.object({ name: z.string().min(1), source: Source })).max(200);

const LayerDetailsArgs = z.object({ source: Source });
const ExtentArgs = z.object({ source: Source, crs: z.string().min(1).nullable().default(null) });
const QueryArgs = z.object({
  source: Source,
  where: z.string().min(1).max(4000).nullable().default(null),
  bbox: BBox.nullable().default(null),
  geometry: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).nullable().default(null),
  filter_crs: z.string().min(1).default('EPSG:4326'),
  fields: z.array(z.string()).nullable().default(null),
  limit: z.number().int().min(1).max(5000).default(50),
  include_geometry: z.boolean().default(true),
  max_chars: z.number().int().min(1000).max(2_000_000).default(60_000),
});
const SampleArgs = z.object({
  source: Source,
  points: z.array(z.tuple([z.number(), z.number()])).min(1).max(10_000),
  crs: z.string().min(1).default('EPSG:4326'),
  bands: z.array(z.number().int()).min(1).nullable().default(null),
});
const StatsArgs = z.object({
  source: Source,
  bands: z.array(z.number().int()).min(1).nullable().default(null),
  zones: Source.nullable().default(null),
  zone_field: z.string().min(1).nullable().default(null),
  max_zones: z.number().int().min(1).max(10_000).default(500),
  all_touched: z.boolean().default(false),
});
const DescribePathArgs = z.object({ path: z.string().min(1) });
const SqlArgs = z.object({
  sql: z.string().min(1).max(20_000),
  tables: Tables,
  limit: z.number().int().min(1).max(5000).default(100),
  include_geometry: z.boolean().default(false),
  max_chars: z.number().int().min(1000).max(2_000_000).default(60_000),
});
const SaveSqlArgs = z.object({ sql: z.string().min(1).max(20_000), tables: Tables, output: z.string().min(1) });

/** Worker functions of the inspect family, by name. */
export const INSPECT_FUNCTIONS: Record<string, WorkerFunction> = {
  'inspect.layer_details': async (args, ctx) => layerDetails(parse(LayerDetailsArgs, args, 'inspect.layer_details').source, ctx.signal),
  'inspect.extent': async (args) => {
    const a = parse(ExtentArgs, args, 'inspect.extent');
    return sourceExtent(a.source, a.crs);
  },
  'inspect.query_features': async (args, ctx) => queryFeatures(parse(QueryArgs, args, 'inspect.query_features'), ctx.signal),
  'inspect.sample_raster': async (args, ctx) => sampleRaster(parse(SampleArgs, args, 'inspect.sample_raster'), ctx.signal),
  'inspect.raster_stats': async (args, ctx) => rasterStats(parse(StatsArgs, args, 'inspect.raster_stats'), ctx.signal, ctx.progress),
  'inspect.describe_path': async (args, ctx) => describePath(parse(DescribePathArgs, args, 'inspect.describe_path').path, ctx.signal),
  'inspect.sql': async (args, ctx) => runSql(parse(SqlArgs, args, 'inspect.sql'), ctx.signal),
  'inspect.save_query': async (args, ctx) => saveSql(parse(SaveSqlArgs, args, 'inspect.save_query'), ctx.signal, ctx.progress),
};
