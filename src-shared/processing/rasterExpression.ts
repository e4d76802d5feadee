/**
 * The raster calculator's expression language, parsed here so that a bad expression is refused
 * before the approval dialog (the params schema refines with it) and the worker evaluates a tree,
 * never a string. The grammar, and nothing else:
 *
 *   expr    := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
 *   sum     := product (('+' | '-') product)*
 *   product := unary (('*' | '/') unary)*
 *   unary   := ('-' | '+') unary | primary
 *   primary := number | band | name '(' expr (',' expr)* ')' | '(' expr ')'
 *   band    := letter digits        A1 = band 1 of the first raster, B2 = band 2 of the second, …
 *   name    := min | max | abs | sqrt | where
 *
 * Comparisons give 1 or 0; where(c, a, b) is a where c ≠ 0, else b.
 */

export type CompareOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type ArithOp = '+' | '-' | '*' | '/';
export type FunctionName = 'min' | 'max' | 'abs' | 'sqrt' | 'where';

export interface BandRef {
  /** 0 for A (the first raster), 1 for B, … */
  raster: number;
  /** 1-based band number. */
  band: number;
  /** As written, upper-cased: `A1`. */
  name: string;
}

export type ExprNode =
  | { type: 'number'; value: number }
  | ({ type: 'band' } & BandRef)
  | { type: 'negate'; arg: ExprNode }
  | { type: 'binary'; op: ArithOp | CompareOp; left: ExprNode; right: ExprNode }
  | { type: 'call'; fn: FunctionName; args: ExprNode[] };

export type ParseResult = { ok: true; tree: ExprNode; bands: BandRef[] } | { ok: false; error: string };

const ARITY: Record<FunctionName, [min: number, max: number]> = {
  min: [2, 16],
  max: [2, 16],
  abs: [1, 1],
  sqrt: [1, 1],
  where: [3, 3],
};

export const MAX_EXPRESSION_LENGTH = 2000;
/** Nesting deeper than this is refused: the tree is walked recursively in the worker. */
const MAX_DEPTH = 64;

interface Token {
  kind: 'number' | 'band' | 'name' | 'op' | 'end';
  text: string;
  /** 1-based column, for messages. */
  at: number;
}

const OPERATORS = ['<=', '>=', '==', '!=', '<', '>', '+', '-', '*', '/', '(', ')', ','];

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const rest = text.slice(i);
    const num = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(rest);
    if (num) {
      tokens.push({ kind: 'number', text: num[0], at: i + 1 });
      i += num[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (word) {
      const w = word[0];
      const kind = /^[A-Za-z]\d+$/.test(w) ? 'band' : 'name';
      tokens.push({ kind, text: w, at: i + 1 });
      i += w.length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (op) {
      tokens.push({ kind: 'op', text: op, at: i + 1 });
      i += op.length;
      continue;
    }
    return `unexpected character '${c}' at column ${i + 1}`;
  }
  tokens.push({ kind: 'end', text: 'end of expression', at: text.length + 1 });
  return tokens;
}

class Parser {
  private pos = 0;
  readonly bands = new Map<string, BandRef>();
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos]!;
  }
  private next(): Token {
    return this.tokens[this.pos++]!;
  }
  private fail(expected: string): never {
    const t = this.peek();
    const found = t.kind === 'end' ? 'the end of the expression' : `'${t.text}'`;
    throw new SyntaxError(`expected ${expected} at column ${t.at}, found ${found}`);
  }
  private isOp(...ops: string[]): boolean {
    const t = this.peek();
    return t.kind === 'op' && ops.includes(t.text);
  }

  parseAll(): ExprNode {
    const tree = this.expr(0);
    if (this.peek().kind !== 'end') this.fail('an operator or the end of the expression');
    return tree;
  }

  private expr(depth: number): ExprNode {
    if (depth > MAX_DEPTH) throw new SyntaxError(`expression nested deeper than ${MAX_DEPTH} levels`);
    const left = this.sum(depth);
    if (this.isOp('<', '<=', '>', '>=', '==', '!=')) {
      const op = this.next().text as CompareOp;
      const right = this.sum(depth);
      if (this.isOp('<', '<=', '>', '>=', '==', '!=')) this.fail('no second comparison (use where() or parentheses)');
      return { type: 'binary', op, left, right };
    }
    return left;
  }

  private sum(depth: number): ExprNode {
    let node = this.product(depth);
    while (this.isOp('+', '-')) {
      const op = this.next().text as ArithOp;
      node = { type: 'binary', op, left: node, right: this.product(depth) };
    }
    return node;
  }

  private product(depth: number): ExprNode {
    let node = this.unary(depth);
    while (this.isOp('*', '/')) {
      const op = this.next().text as ArithOp;
      node = { type: 'binary', op, left: node, right: this.unary(depth) };
    }
    return node;
  }

  private unary(depth: number): ExprNode {
    if (depth > MAX_DEPTH) throw new SyntaxError(`expression nested deeper than ${MAX_DEPTH} levels`);
    if (this.isOp('-')) {
      this.next();
      return { type: 'negate', arg: this.unary(depth + 1) };
    }
    if (this.isOp('+')) {
      this.next();
      return this.unary(depth + 1);
    }
    return this.primary(depth);
  }

  private primary(depth: number): ExprNode {
    const t = this.peek();
    if (t.kind === 'number') {
      this.next();
      const value = Number(t.text);
      if (!Number.isFinite(value)) throw new SyntaxError(`number '${t.text}' at column ${t.at} is out of range`);
      return { type: 'number', value };
    }
    if (t.kind === 'band') {
      this.next();
      const name = t.text.toUpperCase();
      const band = Number(name.slice(1));
      if (band < 1) throw new SyntaxError(`band '${t.text}' at column ${t.at}: bands are numbered from 1`);
      const ref: BandRef = { raster: name.charCodeAt(0) - 65, band, name };
      this.bands.set(name, ref);
      return { type: 'band', ...ref };
    }
    if (t.kind === 'name') {
      const fn = t.text.toLowerCase() as FunctionName;
      if (!Object.hasOwn(ARITY, fn)) {
        throw new SyntaxError(`unknown name '${t.text}' at column ${t.at}: use bands like A1, numbers, and min, max, abs, sqrt, where`);
      }
      this.next();
      if (!this.isOp('(')) this.fail(`'(' after ${fn}`);
      this.next();
      const args = [this.expr(depth + 1)];
      while (this.isOp(',')) {
        this.next();
        args.push(this.expr(depth + 1));
      }
      if (!this.isOp(')')) this.fail(`',' or ')' in ${fn}(…)`);
      this.next();
      const [min, max] = ARITY[fn];
      if (args.length < min || args.length > max) {
        const want = min === max ? `${min}` : `${min} to ${max}`;
        throw new SyntaxError(`${fn}() at column ${t.at} takes ${want} argument(s), got ${args.length}`);
      }
      return { type: 'call', fn, args };
    }
    if (this.isOp('(')) {
      this.next();
      const inner = this.expr(depth + 1);
      if (!this.isOp(')')) this.fail("')'");
      this.next();
      return inner;
    }
    return this.fail("a number, a band like A1, a function (min, max, abs, sqrt, where) or '('");
  }
}

/** Parses an expression of the grammar above; never evaluates anything. */
export function parseRasterExpression(text: string): ParseResult {
  if (text.length > MAX_EXPRESSION_LENGTH) return { ok: false, error: `expression longer than ${MAX_EXPRESSION_LENGTH} characters` };
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return { ok: false, error: tokens };
  const parser = new Parser(tokens);
  try {
    const tree = parser.parseAll();
    const bands = [...parser.bands.values()].sort((a, b) => a.raster - b.raster || a.band - b.band);
    if (bands.length === 0) return { ok: false, error: 'the expression uses no band (write A1 for band 1 of the first raster)' };
    return { ok: true, tree, bands };
  } catch (err) {
    if (err instanceof SyntaxError) return { ok: false, error: err.message };
    throw err;
  }
}
