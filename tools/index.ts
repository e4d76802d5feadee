import type { ToolDefinition } from '../src-shared/tools/toolSdk.js';
import { layerInfo } from './inspect/layerInfo.js';
import { listLayers } from './inspect/listLayers.js';
import { loadLayer } from './layers/loadLayer.js';
import { moveLayer } from './layers/moveLayer.js';
import { removeLayer } from './layers/removeLayer.js';
import { setLayerOpacity } from './layers/setLayerOpacity.js';
import { setLayerVisibility } from './layers/setLayerVisibility.js';
import { zoomToLayer } from './layers/zoomToLayer.js';
import { currentView } from './map/currentView.js';
import { mapScreenshot } from './map/mapScreenshot.js';
import { describeAlgorithm } from './processing/describeAlgorithm.js';
import { listAlgorithms } from './processing/listAlgorithms.js';
import { runAlgorithm } from './processing/runAlgorithm.js';

/** Every built-in tool. A new domain adds its folder here; orchestration stays untouched. */
export const builtInTools: readonly ToolDefinition[] = [
  listLayers,
  layerInfo,
  loadLayer,
  removeLayer,
  setLayerOpacity,
  setLayerVisibility,
  moveLayer,
  zoomToLayer,
  currentView,
  mapScreenshot,
  listAlgorithms,
  describeAlgorithm,
  runAlgorithm,
] as unknown as readonly ToolDefinition[];
