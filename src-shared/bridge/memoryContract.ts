import { z } from 'zod';
import { Memory } from '../domain/memory.js';

const MemoryList = z.object({ memories: z.array(Memory) });

/**
 * The Memory panel (issue 17): the renderer reads the person's memories and the open
 * project's, and is told of every change (the model remembered something, the person edited or
 * deleted one). Editing and deleting go through `entries/trigger` (the user-only
 * `memory.edit` and `memory.remove` tools), so they are validated and audited like any call.
 */
export const memoryMethods = {
  'memory/list': { params: z.object({}).strict(), result: MemoryList },
};

export const memoryEvents = {
  /** The whole list after any change, newest first. */
  'memory/changed': MemoryList,
};
