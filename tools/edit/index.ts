import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { addFeatures, deleteFeatures, updateFeatures } from './featureTools.js';
import { startEditingTool } from './startEditing.js';
import { writeBackTool } from './writeBack.js';

export const editTools: readonly ToolDefinition[] = [startEditingTool, addFeatures, updateFeatures, deleteFeatures, writeBackTool];
