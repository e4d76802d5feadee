import { z } from 'zod';
import { MAX_MEMORY_TEXT, MemoryScope } from '../../src-shared/domain/memory.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { keptText, memoryFacts, quotedMemory } from './memoryFacts.js';

/**
 * The model keeps a note (issue 17). A write: the dialog shows the exact text that will be
 * kept (summary and preview), so nothing is remembered that the person did not read.
 */
export const rememberMemory = defineTool({
  id: 'memory.remember',
  version: '1.0.0',
  group: 'memory',
  icon: 'bookmark',
  title: 'Remember',
  description: 'Keeps a note the person asked to remember for later conversations; they approve the exact text. Returns its id.',
  input: z.object({
    text: z.string().max(MAX_MEMORY_TEXT).describe('One short line, no secrets'),
    scope: MemoryScope.default('project').describe('user: every project; project: this one'),
  }),
  safety: 'write',
  // Memory is the person's, not the project's: Undo does not bring it back (the person deletes).
  undoable: false,
  exec: 'main',
  handles: ['memory'],
  summary: (a) => `Remember (${a.scope}): ${quotedMemory(a.text)}`,
  async prepare(args) {
    const text = keptText(args.text);
    return { args: { ...args, text }, preview: { scope: args.scope, text } };
  },
  async execute(args, { handles }) {
    const { memory, already } = handles.memory.remember({ scope: args.scope, text: args.text });
    return { memory: memoryFacts(memory), already };
  },
});
