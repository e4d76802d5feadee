import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rasterCalculator } from './rasterAlgorithms.js';
import { parseRasterExpression, type ExprNode } from './rasterExpression.js';

function tree(text: string): ExprNode {
  const r = parseRasterExpression(text);
  if (!r.ok) throw new Error(r.error);
  return r.tree;
}

function error(text: string): string {
  const r = parseRasterExpression(text);
  assert.equal(r.ok, false, `'${text}' should be refused`);
  return r.ok ? '' : r.error;
}

describe('raster calculator expression grammar', () => {
  test('precedence: * before +, comparison last, unary minus binds tightest', () => {
    assert.deepEqual(tree('A1 + 2 * B1 > 3'), {
      type: 'binary',
      op: '>',
      left: {
        type: 'binary',
        op: '+',
        left: { type: 'band', raster: 0, band: 1, name: 'A1' },
        right: { type: 'binary', op: '*', left: { type: 'number', value: 2 }, right: { type: 'band', raster: 1, band: 1, name: 'B1' } },
      },
      right: { type: 'number', value: 3 },
    });
    assert.deepEqual(tree('-A1 * 2'), {
      type: 'binary',
      op: '*',
      left: { type: 'negate', arg: { type: 'band', raster: 0, band: 1, name: 'A1' } },
      right: { type: 'number', value: 2 },
    });
    // Left-associative: 8 - 2 - 1 is (8 - 2) - 1.
    const t = tree('A1 - 2 - 1');
    assert.equal(t.type === 'binary' && t.left.type === 'binary' && t.left.op, '-');
  });

  test('NDVI, functions, numbers in every form, lower-case band names', () => {
    const r = parseRasterExpression('(a4 - A3) / (A4 + A3) + where(B1 >= 1.5e2, max(A1, .5, 3.), sqrt(abs(min(A2, -1))))');
    assert.ok(r.ok);
    assert.deepEqual(r.ok && r.bands.map((b) => b.name), ['A1', 'A2', 'A3', 'A4', 'B1']);
    assert.deepEqual(r.ok && r.bands.find((b) => b.name === 'B1'), { raster: 1, band: 1, name: 'B1' });
  });

  test('refuses anything outside the grammar, saying where', () => {
    assert.match(error('process.exit(1)'), /unexpected character '\.' at column 8/);
    assert.match(error('exit(1) + A1'), /unknown name 'exit' at column 1/);
    assert.match(error('A1; B1'), /unexpected character ';' at column 3/);
    assert.match(error('A1 ** 2'), /expected .* at column 5/);
    assert.match(error('constructor'), /unknown name 'constructor'/);
    assert.match(error('A1 + `x`'), /unexpected character '`'/);
    assert.match(error('A1 + "1"'), /unexpected character '"'/);
    assert.match(error('[A1]'), /unexpected character '\['/);
    assert.match(error('A1 = 1'), /unexpected character '='/);
    assert.match(error('where(A1 > 1, 2)'), /where\(\) at column 1 takes 3 argument/);
    assert.match(error('sqrt(A1, A2)'), /sqrt\(\) .* takes 1 argument/);
    assert.match(error('min(A1)'), /min\(\) .* takes 2 to 16/);
    assert.match(error('(A1 + 1'), /expected '\)' at column 8, found the end/);
    assert.match(error('A1 < B1 < C1'), /no second comparison/);
    assert.match(error('A0 + 1'), /bands are numbered from 1/);
    assert.match(error('2 + 3'), /uses no band/);
    assert.match(error(''), /expected a number/);
    assert.match(error(`${'('.repeat(100)}A1${')'.repeat(100)}`), /nested deeper/);
    assert.match(error('A1 + 1'.repeat(500)), /longer than/);
  });

  test('the catalogue params refuse a bad expression and a band of a missing input before the dialog', () => {
    const ok = rasterCalculator.params.safeParse({ inputs: ['dem', 'landsat'], expression: 'A1 * 2 + B3' });
    assert.ok(ok.success);
    const bad = rasterCalculator.params.safeParse({ inputs: ['dem'], expression: 'A1 +' });
    assert.ok(!bad.success);
    assert.match(bad.error.issues[0]!.message, /invalid expression: expected/);
    const missing = rasterCalculator.params.safeParse({ inputs: ['dem'], expression: 'A1 - C1' });
    assert.ok(!missing.success);
    assert.deepEqual(missing.error.issues[0]!.path, ['expression']);
    assert.match(missing.error.issues[0]!.message, /C1 refers to input C, but only 1 input/);
  });
});
