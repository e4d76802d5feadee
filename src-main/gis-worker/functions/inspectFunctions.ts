import { describePath } from '../inspect/describePath.js';
import { layerDetails, sourceExtent } from '../inspect/layerDetails.js';
import { queryFeatures } from '../inspect/queryFeatures.js';
import { rasterStats } from '../inspect/rasterStats.js';
import { sampleRaster } from '../inspect/sampleRaster.js';
import { runSql, saveSql } from '../inspect/sqlQuery.js';
import { describeSource } from '../describeSource.js';
import type { WorkerFamily } from './types.js';

/** The inspect family (src-shared/worker/inspectCalls.ts). */
export const INSPECT_FUNCTIONS: WorkerFamily<'inspect'> = {
  'inspect.layer_details': (a, ctx) => layerDetails(a.source, ctx.signal),
  'inspect.extent': async (a) => sourceExtent(a.source, a.crs),
  'inspect.query_features': (a, ctx) => queryFeatures(a, ctx.signal),
  'inspect.sample_raster': (a, ctx) => sampleRaster(a, ctx.signal),
  'inspect.raster_stats': (a, ctx) => rasterStats(a, ctx.signal, ctx.progress),
  'inspect.describe_path': (a, ctx) => describePath(a.path, ctx.signal),
  'inspect.sql': (a, ctx) => runSql(a, ctx.signal),
  'inspect.save_query': async (a, ctx) => {
    const saved = await saveSql(a, ctx.signal, ctx.progress);
    return { ...saved, info: await describeSource(saved.output, ctx.signal) };
  },
};
