import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { currentView } from './currentView.js';
import { mapExport } from './mapExport.js';
import { mapScreenshot } from './mapScreenshot.js';
import { mapSelection } from './selection.js';
import { setTerrain } from './setTerrain.js';

/** Questions the renderer answers (exec: renderer), the print layout it composes, and the 3D terrain. */
export const mapTools: readonly ToolDefinition[] = [currentView, mapScreenshot, mapSelection, mapExport, setTerrain];
