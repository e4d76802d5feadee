import type { ExprNode } from '../../../src-shared/processing/rasterExpression.js';

/** A value of the evaluation: a constant, or one double per pixel of the block. */
export type Values = number | Float64Array;

/**
 * Evaluates a parsed expression over one block of pixels, a whole array per operation (no
 * per-pixel tree walk, no strings). `bands` holds each referenced band's block by name (`A1`).
 * Invalid inputs are the caller's to mask; here NaN and ±Infinity simply propagate.
 */
export function evaluateBlock(tree: ExprNode, bands: ReadonlyMap<string, Float64Array>, length: number): Float64Array {
  const result = evaluate(tree, bands, length);
  return typeof result === 'number' ? new Float64Array(length).fill(result) : result;
}

function evaluate(node: ExprNode, bands: ReadonlyMap<string, Float64Array>, n: number): Values {
  switch (node.type) {
    case 'number':
      return node.value;
    case 'band': {
      const block = bands.get(node.name);
      if (!block) throw new Error(`band ${node.name} was not read`);
      return block;
    }
    case 'negate':
      return unary(evaluate(node.arg, bands, n), n, (x) => -x);
    case 'binary':
      return binary(node.op, evaluate(node.left, bands, n), evaluate(node.right, bands, n), n);
    case 'call': {
      const args = node.args.map((a) => evaluate(a, bands, n));
      switch (node.fn) {
        case 'abs':
          return unary(args[0]!, n, Math.abs);
        case 'sqrt':
          return unary(args[0]!, n, Math.sqrt);
        case 'min':
          return args.reduce((a, b) => zip(a, b, n, (x, y) => (x !== x || y !== y ? NaN : x < y ? x : y)));
        case 'max':
          return args.reduce((a, b) => zip(a, b, n, (x, y) => (x !== x || y !== y ? NaN : x > y ? x : y)));
        case 'where':
          return where(args[0]!, args[1]!, args[2]!, n);
      }
    }
  }
}

function unary(a: Values, n: number, fn: (x: number) => number): Values {
  if (typeof a === 'number') return fn(a);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fn(a[i]!);
  return out;
}

function zip(a: Values, b: Values, n: number, fn: (x: number, y: number) => number): Values {
  if (typeof a === 'number' && typeof b === 'number') return fn(a, b);
  const out = new Float64Array(n);
  if (typeof a === 'number') for (let i = 0; i < n; i++) out[i] = fn(a, (b as Float64Array)[i]!);
  else if (typeof b === 'number') for (let i = 0; i < n; i++) out[i] = fn(a[i]!, b);
  else for (let i = 0; i < n; i++) out[i] = fn(a[i]!, b[i]!);
  return out;
}

function binary(op: string, a: Values, b: Values, n: number): Values {
  switch (op) {
    case '+':
      return zip(a, b, n, (x, y) => x + y);
    case '-':
      return zip(a, b, n, (x, y) => x - y);
    case '*':
      return zip(a, b, n, (x, y) => x * y);
    case '/':
      return zip(a, b, n, (x, y) => x / y);
    case '<':
      return zip(a, b, n, (x, y) => (x !== x || y !== y ? NaN : x < y ? 1 : 0));
    case '<=':
      return zip(a, b, n, (x, y) => (x !== x || y !== y ? NaN : x <= y ? 1 : 0));
    case '>':
      return zip(a, b, n, (x, y) => (x !== x || y !== y ? NaN : x > y ? 1 : 0));
    case '>=':
      return zip(a, b, n, (x, y) => (x !== x || y !== y ? NaN : x >= y ? 1 : 0));
    case '==':
      return zip(a, b, n, (x, y) => (x !== x || y !== y ? NaN : x === y ? 1 : 0));
    case '!=':
      return zip(a, b, n, (x, y) => (x !== x || y !== y ? NaN : x !== y ? 1 : 0));
    default:
      throw new Error(`unknown operator ${op}`);
  }
}

/** where(c, a, b): a where c ≠ 0, b where c = 0, NaN where c is NaN. */
function where(c: Values, a: Values, b: Values, n: number): Values {
  if (typeof c === 'number') return c !== c ? NaN : c !== 0 ? a : b;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const ci = c[i]!;
    out[i] = ci !== ci ? NaN : ci !== 0 ? (typeof a === 'number' ? a : a[i]!) : typeof b === 'number' ? b : b[i]!;
  }
  return out;
}
