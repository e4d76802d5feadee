import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_MEMORIES, MAX_MEMORY_TEXT } from '../../src-shared/domain/memory.js';
import { buildSystemPrompt } from '../agent/systemPrompt.js';
import { MEMORY_EXCERPT_CHARS, MEMORY_EXCERPT_HEAD, memoryExcerpt } from './memoryExcerpt.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 10, minute)).toISOString();
const memory = (text: string, minute: number) => ({ text, updatedAt: at(minute) });
const lines = (excerpt: string | null) => excerpt?.split('\n').slice(1) ?? [];
const empty = { catalogue: [], preloaded: [], project: { name: 'P', layers: [], view: null }, language: 'en' };

describe('memory excerpt in the system prompt', () => {
  it('adds nothing at all when nothing is remembered', () => {
    assert.equal(memoryExcerpt([], 'anything'), null);
    const without = buildSystemPrompt(empty);
    assert.equal(buildSystemPrompt({ ...empty, memories: null }), without);
    assert.equal(buildSystemPrompt({ ...empty, memories: memoryExcerpt([], 'x') }), without);
  });

  it('is a short block after the project summary: the head, then one line per memory', () => {
    const excerpt = memoryExcerpt([memory('Rivers layer is in EPSG:2169', 1)], 'hello');
    assert.equal(excerpt, `${MEMORY_EXCERPT_HEAD}\n- Rivers layer is in EPSG:2169`);
    const prompt = buildSystemPrompt({ ...empty, memories: excerpt });
    assert.ok(prompt.endsWith(`(no layers loaded)\n\n${excerpt}`), prompt);
  });

  it('puts the memories most relevant to the latest message first, then the newest', () => {
    const excerpt = memoryExcerpt(
      [
        memory('Reports go to Anna', 5),
        memory('Prefer blue for rivers', 1),
        memory('Use metres for buffers', 3),
        memory('Rivers are in EPSG:2169', 2),
      ],
      'colour the rivers in EPSG:2169',
    );
    assert.deepEqual(lines(excerpt), [
      '- Rivers are in EPSG:2169',
      '- Prefer blue for rivers',
      '- Reports go to Anna',
      '- Use metres for buffers',
    ]);
  });

  it('never passes 600 characters whatever is stored, and never cuts a memory', () => {
    const stored = Array.from({ length: MAX_MEMORIES }, (_, i) =>
      memory(`Note ${i} ${'about the rivers '.repeat(1 + (i % 25))}`.trim(), i),
    );
    const excerpt = memoryExcerpt(stored, 'rivers')!;
    assert.ok(excerpt.length <= MEMORY_EXCERPT_CHARS, `${excerpt.length} characters`);
    assert.equal(MEMORY_EXCERPT_CHARS, 600);
    const texts = new Set(stored.map((m) => m.text));
    for (const line of lines(excerpt)) assert.ok(texts.has(line.slice(2)), `whole memory: ${line}`);
    assert.ok(lines(excerpt).length >= 2);
  });

  it('skips a long memory that does not fit and fills the rest with shorter ones', () => {
    const long = memory(`rivers ${'x'.repeat(MAX_MEMORY_TEXT - 7)}`, 9);
    const excerpt = memoryExcerpt([memory(`rivers ${'y'.repeat(200)}`, 1), long, memory('Short note on rivers', 2)], 'rivers')!;
    // The newest (the 500-character one) comes first and fits alone; the 207-character one no longer does.
    assert.deepEqual(lines(excerpt), [`- ${long.text}`, '- Short note on rivers']);
    assert.ok(excerpt.length <= MEMORY_EXCERPT_CHARS);
    // The longest memory allowed always fits on its own.
    assert.equal(lines(memoryExcerpt([long], '')).length, 1);
  });
});
