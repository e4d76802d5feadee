import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { layerInfo } from './layerInfo.js';
import { listLayers } from './listLayers.js';

/** The inspect family (read tools). */
export const inspectTools = [listLayers, layerInfo] as unknown as readonly ToolDefinition[];
