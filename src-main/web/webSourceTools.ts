import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import type { ComposedToolDeps } from '../composition/composedTools.js';

/** Issue #13 — being built. */
export function createWebSourceTools(_deps: ComposedToolDeps): ToolDefinition[] {
  return [];
}
