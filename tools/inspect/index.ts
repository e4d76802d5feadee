import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { describePath } from './describePath.js';
import { layerExtent } from './layerExtent.js';
import { layerInfo } from './layerInfo.js';
import { listLayers } from './listLayers.js';
import { queryFeatures } from './queryFeatures.js';
import { rasterStats } from './rasterStats.js';
import { sampleRaster } from './sampleRaster.js';
import { saveQuery } from './saveQuery.js';
import { sqlQuery } from './sqlQuery.js';

/** The inspect family: read tools, plus save_query, the write twin of the SQL tool. */
export const inspectTools: readonly ToolDefinition[] = [
  listLayers,
  layerInfo,
  layerExtent,
  queryFeatures,
  sampleRaster,
  rasterStats,
  describePath,
  sqlQuery,
  saveQuery,
];
