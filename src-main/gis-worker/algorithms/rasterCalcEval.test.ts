import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRasterExpression } from '../../../src-shared/processing/rasterExpression.js';
import { evaluateBlock } from './rasterCalcEval.js';

function run(expression: string, bands: Record<string, number[]>): number[] {
  const parsed = parseRasterExpression(expression);
  if (!parsed.ok) throw new Error(parsed.error);
  const n = Object.values(bands)[0]!.length;
  const blocks = new Map(Object.entries(bands).map(([k, v]) => [k, Float64Array.from(v)]));
  return [...evaluateBlock(parsed.tree, blocks, n)];
}

test('arithmetic follows precedence, element by element, with constants broadcast', () => {
  assert.deepEqual(run('A1 + 2 * B1 - 1', { A1: [1, 2, 3], B1: [10, 20, 30] }), [20, 41, 62]);
  assert.deepEqual(run('-(A1 - 4) / 2', { A1: [0, 4, 10] }), [2, -0, -3]);
  assert.deepEqual(run('(A2 - A1) / (A2 + A1)', { A1: [10, 30, 0], A2: [30, 10, 0] }), [0.5, -0.5, NaN]);
  assert.deepEqual(run('A1 / 0', { A1: [1, -1] }), [Infinity, -Infinity]);
});

test('comparisons give 1 or 0, where() picks per pixel, functions apply per pixel', () => {
  assert.deepEqual(run('A1 > 2', { A1: [1, 2, 3] }), [0, 0, 1]);
  assert.deepEqual(run('A1 <= 2', { A1: [1, 2, 3] }), [1, 1, 0]);
  assert.deepEqual(run('A1 == 2', { A1: [1, 2, 3] }), [0, 1, 0]);
  assert.deepEqual(run('A1 != 2', { A1: [1, 2, 3] }), [1, 0, 1]);
  assert.deepEqual(run('where(A1 >= 2, B1, -B1)', { A1: [1, 2, 3], B1: [5, 6, 7] }), [-5, 6, 7]);
  assert.deepEqual(run('min(A1, B1, 4)', { A1: [1, 9, 5], B1: [3, 2, 8] }), [1, 2, 4]);
  assert.deepEqual(run('max(A1, B1)', { A1: [1, 9, 5], B1: [3, 2, 8] }), [3, 9, 8]);
  assert.deepEqual(run('sqrt(abs(A1))', { A1: [-4, 9, 0] }), [2, 3, 0]);
  assert.deepEqual(run('sqrt(A1)', { A1: [-1] }), [NaN]);
  // A constant expression part is folded and then broadcast.
  assert.deepEqual(run('A1 * 0 + max(2, 3)', { A1: [7, 8] }), [3, 3]);
});

test('NaN (an invalid value) propagates through comparisons, min/max and where', () => {
  const out = run('where(A1 > 0, min(A1, 5), max(A1, -5))', { A1: [NaN, 3, -9] });
  assert.ok(Number.isNaN(out[0]));
  assert.deepEqual(out.slice(1), [3, -5]);
});
