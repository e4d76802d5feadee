import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';

/** The style family (write tools that change how layers are drawn). */
export const styleTools = [] as unknown as readonly ToolDefinition[];
