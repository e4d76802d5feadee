import type { ToolDefinition } from '../src-shared/tools/toolSdk.js';
import { annotationTools } from './annotations/index.js';
import { editTools } from './edit/index.js';
import { fieldTools } from './fields/fieldTools.js';
import { inspectTools } from './inspect/index.js';
import { layerTools } from './layers/index.js';
import { mapTools } from './map/index.js';
import { memoryTools } from './memory/index.js';
import { processingTools } from './processing/index.js';
import { styleTools } from './style/index.js';

/** Every built-in tool. A new domain adds its folder and its list here; orchestration stays untouched. */
export const builtInTools: readonly ToolDefinition[] = [
  ...inspectTools,
  ...layerTools,
  ...styleTools,
  ...mapTools,
  ...processingTools,
  ...annotationTools,
  ...editTools,
  ...fieldTools,
  ...memoryTools,
];
