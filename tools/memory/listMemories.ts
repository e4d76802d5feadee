import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { memoryFacts } from './memoryFacts.js';

export const listMemories = defineTool({
  id: 'memory.list',
  version: '1.0.0',
  group: 'memory',
  icon: 'bookmark',
  title: 'List memories',
  description: "Returns every remembered note (the person's and this project's), newest first, with ids.",
  input: z.object({}),
  safety: 'read',
  exec: 'main',
  handles: ['memory'],
  summary: () => 'List memories',
  async execute(_args, { handles }) {
    return { memories: handles.memory.list().map(memoryFacts) };
  },
});
