import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { currentView } from './currentView.js';
import { mapExport } from './mapExport.js';
import { mapScreenshot } from './mapScreenshot.js';
import { mapSelection } from './selection.js';

/** Questions the renderer answers (exec: renderer), and the print layout it composes. */
export const mapTools: readonly ToolDefinition[] = [currentView, mapScreenshot, mapSelection, mapExport];
