import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createThinkTagSplitter, type SplitPart } from './thinkTagSplitter.js';

/** Feeds byte slices through a streaming UTF-8 decoder, as the HTTP client does. */
function splitBytes(text: string, cuts: number[]): { visible: string; reasoning: string; parts: SplitPart[] } {
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  const splitter = createThinkTagSplitter();
  const parts: SplitPart[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    parts.push(...splitter.feed(decoder.decode(bytes.subarray(from, cut), { stream: true })));
    from = cut;
  }
  parts.push(...splitter.feed(decoder.decode()), ...splitter.end());
  return { visible: splitter.visible, reasoning: splitter.reasoning, parts };
}

const joined = (parts: SplitPart[], kind: SplitPart['kind']) =>
  parts
    .filter((p) => p.kind === kind)
    .map((p) => p.text)
    .join('');

describe('<think> splitter', () => {
  const sample = '<think>Le CRS est EPSG:4326 — pas de mètres 🌍.</think>\n\nBuffer in metres needs a projected CRS.';
  const reasoning = 'Le CRS est EPSG:4326 — pas de mètres 🌍.';
  const answer = 'Buffer in metres needs a projected CRS.';

  test('whole input', () => {
    const out = splitBytes(sample, []);
    assert.equal(out.visible, answer);
    assert.equal(out.reasoning, reasoning);
  });

  test('split into two at every byte position', () => {
    const length = new TextEncoder().encode(sample).length;
    for (let cut = 0; cut <= length; cut++) {
      const out = splitBytes(sample, [cut]);
      assert.equal(out.visible, answer, `cut at byte ${cut}`);
      assert.equal(out.reasoning, reasoning, `cut at byte ${cut}`);
      // The parts handed out live add up to the totals: nothing held back is lost.
      assert.equal(joined(out.parts, 'text'), answer, `live text, cut at byte ${cut}`);
      assert.equal(joined(out.parts, 'reasoning'), reasoning, `live reasoning, cut at byte ${cut}`);
    }
  });

  test('split into three at every pair of byte positions around both tags', () => {
    const bytes = new TextEncoder().encode(sample);
    for (let a = 0; a <= 12; a++) {
      for (let b = bytes.length - answer.length - 14; b <= bytes.length - answer.length; b++) {
        const out = splitBytes(sample, [a, b]);
        assert.equal(out.visible, answer, `cuts ${a}, ${b}`);
        assert.equal(out.reasoning, reasoning, `cuts ${a}, ${b}`);
      }
    }
  });

  test('one byte per chunk', () => {
    const length = new TextEncoder().encode(sample).length;
    const out = splitBytes(
      sample,
      Array.from({ length }, (_, i) => i),
    );
    assert.equal(out.visible, answer);
    assert.equal(out.reasoning, reasoning);
  });

  test('no tags: everything is text, and a lone "<" is not held forever', () => {
    const splitter = createThinkTagSplitter();
    assert.deepEqual(splitter.feed('a < b and <th'), [{ kind: 'text', text: 'a < b and ' }]);
    assert.deepEqual(splitter.feed('e> tag'), [{ kind: 'text', text: '<the> tag' }]);
    assert.deepEqual(splitter.end(), []);
    assert.equal(splitter.sawTags, false);
  });

  test('an unfinished block at the end is reasoning (a cut-off model)', () => {
    const out = splitBytes('<think>still thinking <', []);
    assert.equal(out.visible, '');
    assert.equal(out.reasoning, 'still thinking <');
  });

  test('text before the block is kept', () => {
    const out = splitBytes('Sure. <think>plan</think> Done.', []);
    assert.equal(out.visible, 'Sure. Done.');
    assert.equal(out.reasoning, 'plan');
  });

  test('an orphan </think> (opened by the prompt template) turns what came before into reasoning', () => {
    for (let cut = 0; cut <= 30; cut++) {
      const out = splitBytes('I should list layers.</think>\n\nHere they are.', [cut]);
      assert.equal(out.visible, 'Here they are.', `cut ${cut}`);
      assert.equal(out.reasoning, 'I should list layers.', `cut ${cut}`);
    }
  });

  test('two blocks', () => {
    const out = splitBytes('<think>a</think>x<think>b</think>y', []);
    assert.equal(out.visible, 'xy');
    assert.equal(out.reasoning, 'ab');
  });
});
