import type { Memory } from '../../src-shared/domain/memory.js';
import { rankMemories } from '../../src-shared/memory/memoryRelevance.js';

/**
 * The memories a request carries in its system prompt: a FIXED budget, whatever is stored, so a
 * person with two hundred notes pays no more per request than one with three. Whole lines
 * only (a cut memory could say the opposite of what was kept), the most relevant to the
 * person's latest message first, then the newest. No memories: no block at all.
 */
export const MEMORY_EXCERPT_CHARS = 600;
export const MEMORY_EXCERPT_HEAD = 'Remembered (memory_recall for more):';

export function memoryExcerpt(memories: readonly Pick<Memory, 'text' | 'updatedAt'>[], latestUserText: string): string | null {
  let text = MEMORY_EXCERPT_HEAD;
  let lines = 0;
  for (const { memory } of rankMemories(memories, latestUserText)) {
    const line = `\n- ${memory.text}`;
    // A long one that does not fit leaves room for a shorter, less relevant one after it.
    if (text.length + line.length > MEMORY_EXCERPT_CHARS) continue;
    text += line;
    lines++;
  }
  return lines > 0 ? text : null;
}
