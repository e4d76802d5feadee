import { z } from 'zod';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { memoryFacts, quotedMemory } from './memoryFacts.js';

/**
 * The person deletes a memory from the Memory panel. `user_only`: never offered to the model
 * and refused if it names it — the model may suggest forgetting, only the person deletes. The
 * person's own click is their approval.
 */
export const removeMemory = defineTool({
  id: 'memory.remove',
  version: '1.0.0',
  group: 'memory',
  icon: 'bookmark',
  title: 'Delete memory',
  description: 'Deletes a remembered note (the person only, from the Memory panel). Returns what was deleted.',
  input: z.object({ id: z.string().min(1).max(100).describe('Memory id') }),
  safety: 'write',
  // Memory is the person's, not the project's: Undo does not bring it back (the person deletes).
  undoable: false,
  caller: 'user_only',
  userVisible: true,
  exec: 'main',
  handles: ['memory'],
  summary: () => 'Delete memory',
  // Checked before the call runs: an unknown id is refused with nothing done. Only for the
  // person: the policy refuses anyone else right after, without telling which ids exist.
  async prepare(args, { handles, caller }) {
    if (caller !== 'user') return { args };
    const memory = handles.memory.list().find((m) => m.id === args.id);
    if (!memory) throw new ToolFailure('invalid_params', `id: no memory '${args.id}' for this person and project.`, false);
    return { args, preview: { scope: memory.scope, text: quotedMemory(memory.text) } };
  },
  async execute(args, { handles }) {
    return { deleted: memoryFacts(handles.memory.remove(args.id)) };
  },
});
