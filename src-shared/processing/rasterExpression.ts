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

import { createLexer, type Token } from '../text/lexer.js';

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

/** Numbers, words (bands such as A1 and function names), operators; nothing else. */
const lexExpression = createLexer({
  space: (c) => /\s/.test(c),
  number: /(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/,
  word: /[A-Za-z_][A-Za-z0-9_]*/,
  operators: ['<=', '>=', '==', '!=', '<', '>', '+', '-', '*', '/', '(', ')', ','],
  messages: { unexpected: (c, at) => `unexpected character '${c}' at column ${at + 1}` },
  error: (message) => new SyntaxError(message),
});

/** A word that names a band: one letter, then digits. */
const BAND = /^[A-Za-z]\d+$/;

class Parser {
  private pos = 0;
  readonly bands = new Map<string, BandRef>();
  constructor(
    private readonly tokens: Token[],
    private readonly length: number,
  ) {}

  /** The next token; undefined at the end of the expression. */
  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }
  private next(): Token {
    return this.tokens[this.pos++]!;
  }
  /** 1-based column of a token, or of the end, for messages. */
  private column(t: Token | undefined): number {
    return t ? t.start + 1 : this.length + 1;
  }
  private fail(expected: string): never {
    const t = this.peek();
    const found = t ? `'${t.text}'` : 'the end of the expression';
    throw new SyntaxError(`expected ${expected} at column ${this.column(t)}, found ${found}`);
  }
  private isOp(...ops: string[]): boolean {
    const t = this.peek();
    return t?.kind === 'op' && ops.includes(t.text);
  }

  parseAll(): ExprNode {
    const tree = this.expr(0);
    if (this.peek()) this.fail('an operator or the end of the expression');
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
    return this.leftAssociative(['+', '-'], (d) => this.product(d), depth);
  }

  private product(depth: number): ExprNode {
    return this.leftAssociative(['*', '/'], (d) => this.unary(d), depth);
  }

  /** operand (op operand)*, grouped from the left: 8 - 2 - 1 is (8 - 2) - 1. */
  private leftAssociative(ops: ArithOp[], operand: (depth: number) => ExprNode, depth: number): ExprNode {
    let node = operand(depth);
    while (this.isOp(...ops)) {
      const op = this.next().text as ArithOp;
      node = { type: 'binary', op, left: node, right: operand(depth) };
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
    const at = this.column(t);
    if (t?.kind === 'number') {
      this.next();
      const value = Number(t.text);
      if (!Number.isFinite(value)) throw new SyntaxError(`number '${t.text}' at column ${at} is out of range`);
      return { type: 'number', value };
    }
    if (t?.kind === 'word' && BAND.test(t.text)) {
      this.next();
      const name = t.text.toUpperCase();
      const band = Number(name.slice(1));
      if (band < 1) throw new SyntaxError(`band '${t.text}' at column ${at}: bands are numbered from 1`);
      const ref: BandRef = { raster: name.charCodeAt(0) - 65, band, name };
      this.bands.set(name, ref);
      return { type: 'band', ...ref };
    }
    if (t?.kind === 'word') {
      const fn = t.text.toLowerCase() as FunctionName;
      if (!Object.hasOwn(ARITY, fn)) {
        throw new SyntaxError(`unknown name '${t.text}' at column ${at}: use bands like A1, numbers, and min, max, abs, sqrt, where`);
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
        throw new SyntaxError(`${fn}() at column ${at} takes ${want} argument(s), got ${args.length}`);
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
  try {
    const parser = new Parser(lexExpression(text), text.length);
    const tree = parser.parseAll();
    const bands = [...parser.bands.values()].sort((a, b) => a.raster - b.raster || a.band - b.band);
    if (bands.length === 0) return { ok: false, error: 'the expression uses no band (write A1 for band 1 of the first raster)' };
    return { ok: true, tree, bands };
  } catch (err) {
    if (err instanceof SyntaxError) return { ok: false, error: err.message };
    throw err;
  }
}
