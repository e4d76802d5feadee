import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { editMemory } from './editMemory.js';
import { listMemories } from './listMemories.js';
import { recallMemory } from './recallMemory.js';
import { rememberMemory } from './rememberMemory.js';
import { removeMemory } from './removeMemory.js';

/** Memory (issue 17): the model remembers (the person approves), recalls and lists; only the person edits and deletes. */
export const memoryTools: readonly ToolDefinition[] = [rememberMemory, recallMemory, listMemories, editMemory, removeMemory];
