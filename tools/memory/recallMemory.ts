import { z } from 'zod';
import { rankMemories } from '../../src-shared/memory/memoryRelevance.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { memoryFacts } from './memoryFacts.js';

/** The memories sharing words with a question, best first (the prompt excerpt ranks the same way). */
export const recallMemory = defineTool({
  id: 'memory.recall',
  version: '1.0.0',
  group: 'memory',
  icon: 'bookmark',
  title: 'Recall memories',
  description: 'Returns the remembered notes that best match a query, with ids.',
  input: z.object({
    query: z.string().trim().min(1).max(500).describe('Words to match'),
    limit: z.number().int().min(1).max(20).default(5).describe('At most this many'),
  }),
  safety: 'read',
  exec: 'main',
  handles: ['memory'],
  summary: (a) => `Recall memories about “${a.query}”`,
  async execute(args, { handles }) {
    const all = handles.memory.list();
    const matches = rankMemories(all, args.query).filter((r) => r.score > 0);
    return { memories: matches.slice(0, args.limit).map((r) => memoryFacts(r.memory)), matched: matches.length, kept: all.length };
  },
});
