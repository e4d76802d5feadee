import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { describeAlgorithm } from './describeAlgorithm.js';
import { listAlgorithms } from './listAlgorithms.js';
import { runAlgorithm } from './runAlgorithm.js';

/** The processing family: one `run` tool over the catalogue, with its helpers. */
export const processingTools: readonly ToolDefinition[] = [listAlgorithms, describeAlgorithm, runAlgorithm];
