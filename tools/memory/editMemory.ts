import { z } from 'zod';
import { MAX_MEMORY_TEXT } from '../../src-shared/domain/memory.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { keptText, memoryFacts, quotedMemory } from './memoryFacts.js';

/** The person rewrites a memory in the Memory panel (user only, like deleting). */
export const editMemory = defineTool({
  id: 'memory.edit',
  version: '1.0.0',
  group: 'memory',
  icon: 'bookmark',
  title: 'Edit memory',
  description: 'Replaces the text of a remembered note (the person only, from the Memory panel). Returns the note.',
  input: z.object({
    id: z.string().min(1).max(100).describe('Memory id'),
    text: z.string().max(MAX_MEMORY_TEXT).describe('The new text'),
  }),
  safety: 'write',
  // Memory is the person's, not the project's: Undo does not bring it back (the person deletes).
  undoable: false,
  caller: 'user_only',
  userVisible: true,
  exec: 'main',
  handles: ['memory'],
  summary: (a) => `Edit memory: ${quotedMemory(a.text)}`,
  // Only for the person: anyone else is refused by the policy right after, whatever the text.
  async prepare(args, { caller }) {
    if (caller !== 'user') return { args };
    return { args: { ...args, text: keptText(args.text) } };
  },
  async execute(args, { handles }) {
    return { memory: memoryFacts(handles.memory.update(args.id, args.text)) };
  },
});
