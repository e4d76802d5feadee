import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { exportPostgis } from './exportPostgis.js';
import { loadLayer } from './loadLayer.js';
import { locateLayer } from './locateLayer.js';
import { moveLayer } from './moveLayer.js';
import { postgisTables } from './postgisTables.js';
import { removeLayer } from './removeLayer.js';
import { renameLayer } from './renameLayer.js';
import { setLayerOpacity } from './setLayerOpacity.js';
import { setLayerVisibility } from './setLayerVisibility.js';
import { zoomToLayer } from './zoomToLayer.js';

/** The layers family (project writes, and zoom as a view change). */
export const layerTools: readonly ToolDefinition[] = [
  loadLayer,
  removeLayer,
  renameLayer,
  setLayerOpacity,
  setLayerVisibility,
  moveLayer,
  zoomToLayer,
  locateLayer,
  postgisTables,
  exportPostgis,
];
