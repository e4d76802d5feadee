import type { Memory } from '../domain/memory.js';

/**
 * How well a memory matches a question, by the words they share: no model, no index, the same
 * answer in the prompt excerpt and in `memory_recall`. Latin words are compared whole and
 * lower-cased (a trailing plural `s` dropped); Chinese and Japanese have no spaces, so runs of
 * those characters are compared as overlapping pairs of characters.
 */

/** Short function words that would make every memory match every question. */
const STOP_WORDS = new Set(
  'a an and are as at be but by do does for from has have how i in is it its me my not of on or our so that the their them there these this to us was we what when where which who why will with you your'.split(
    ' ',
  ),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The distinct terms of a text. */
export function memoryTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const [run] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    // A run may mix scripts ("gpkg文件"): split it where CJK starts and ends.
    for (const [part] of run.matchAll(
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu,
    )) {
      if (CJK.test(part)) {
        if (part.length === 1) terms.add(part);
        for (let i = 0; i + 1 < part.length; i++) terms.add(part.slice(i, i + 2));
      } else if (part.length > 1 && !STOP_WORDS.has(part)) {
        terms.add(part.length > 3 && part.endsWith('s') && !part.endsWith('ss') ? part.slice(0, -1) : part);
      }
    }
  }
  return terms;
}

/** How many of the query's terms the memory has. */
export function relevance(query: ReadonlySet<string>, memory: string): number {
  if (query.size === 0) return 0;
  let shared = 0;
  for (const term of memoryTerms(memory)) if (query.has(term)) shared++;
  return shared;
}

/**
 * Memories, most relevant to `query` first, then newest first (last edited); with no query,
 * newest first. Every memory is kept: the caller decides how many fit.
 */
export function rankMemories<M extends Pick<Memory, 'text' | 'updatedAt'>>(
  memories: readonly M[],
  query: string,
): { memory: M; score: number }[] {
  const terms = memoryTerms(query);
  return memories
    .map((memory) => ({ memory, score: relevance(terms, memory.text) }))
    .sort((a, b) => b.score - a.score || (a.memory.updatedAt < b.memory.updatedAt ? 1 : a.memory.updatedAt > b.memory.updatedAt ? -1 : 0));
}
