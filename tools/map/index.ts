import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { currentView } from './currentView.js';
import { mapScreenshot } from './mapScreenshot.js';
import { mapSelection } from './selection.js';

/** Questions the renderer answers (exec: renderer). */
export const mapTools: readonly ToolDefinition[] = [currentView, mapScreenshot, mapSelection];
