import type { ExpressionSpecification } from 'maplibre-gl';
import { quoteIdentifier, quoteLiteral } from '../sql/quote.js';
import { createLexer, type Token } from '../text/lexer.js';

/**
 * The filter language of rule-based styles: a small, SQL-like subset that both a person and a
 * model write without surprises, parsed here and compiled to a MapLibre expression.
 *
 *   POP_EST > 1000000 and CONTINENT = 'Africa'
 *   "name long" in ('Chad', 'Niger') or not (GDP_MD is null)
 *
 * Comparisons `= == != <> < <= > >=` between a field and a literal (number, 'text', true,
 * false), `in (…)`, `not in (…)`, `is null`, `is not null`, combined with `and`, `or`, `not`
 * and parentheses. Field names are bare words or "double-quoted". Nothing else is accepted.
 */

export type Literal = string | number | boolean;
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type FilterNode =
  | { kind: 'all'; of: FilterNode[] }
  | { kind: 'any'; of: FilterNode[] }
  | { kind: 'not'; of: FilterNode }
  | { kind: 'compare'; field: string; op: CompareOp; value: Literal }
  | { kind: 'in'; field: string; values: Literal[]; negated: boolean }
  | { kind: 'null'; field: string; negated: boolean };

export class FilterSyntaxError extends Error {
  override readonly name = 'FilterSyntaxError';
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'null', 'true', 'false']);

const COMPARISONS = new Set(['==', '!=', '<>', '<=', '>=', '=', '<', '>']);

/** 'text' and "field name" with SQL's doubled quotes, numbers (with their sign), words (dots allowed after the first letter). */
const lexFilter = createLexer({
  space: (c) => /\s/.test(c),
  quotes: [
    { kind: 'string', open: "'", close: "'", doubled: true, name: "'" },
    { kind: 'ident', open: '"', close: '"', doubled: true, name: '"' },
  ],
  number: /-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/,
  word: /[\p{L}_][\p{L}\p{N}_.]*/u,
  foldWord: (w) => w.toLowerCase(),
  operators: [...COMPARISONS, '(', ')', ','],
  messages: {
    unexpected: (c, at) => `unexpected '${c}' at position ${at + 1}`,
    unterminated: (quote, at) => `unclosed ${quote} at position ${at + 1}`,
  },
  error: (message) => new FilterSyntaxError(message),
});

/** Parses a filter; throws FilterSyntaxError with the position of the problem. */
export function parseFilter(text: string): FilterNode {
  const tokens: Token[] = lexFilter(text);
  let p = 0;
  const peek = (): Token | undefined => tokens[p];
  const isWord = (w: string) => peek()?.kind === 'word' && peek()!.key === w;
  const isPunct = (v: '(' | ')' | ',') => peek()?.kind === 'op' && peek()!.text === v;
  const where = () => {
    const tok = peek();
    return tok ? `at position ${tok.start + 1}` : 'at the end';
  };
  const expectPunct = (v: '(' | ')' | ',') => {
    if (!isPunct(v)) throw new FilterSyntaxError(`expected '${v}' ${where()}`);
    p++;
  };

  function literal(): Literal {
    const tok = peek();
    if (tok && (tok.kind === 'string' || tok.kind === 'number')) {
      p++;
      return tok.kind === 'number' ? Number(tok.text) : tok.text;
    }
    if (isWord('true') || isWord('false')) {
      p++;
      return tok!.key === 'true';
    }
    throw new FilterSyntaxError(`expected a number, a 'quoted text', true or false ${where()}`);
  }

  function comparison(): FilterNode {
    const tok = peek();
    let field: string;
    if (tok?.kind === 'ident') field = tok.text;
    else if (tok?.kind === 'word' && !KEYWORDS.has(tok.key)) field = tok.text;
    else throw new FilterSyntaxError(`expected a field name ${where()}`);
    p++;
    if (isWord('is')) {
      p++;
      const negated = isWord('not');
      if (negated) p++;
      if (!isWord('null')) throw new FilterSyntaxError(`expected null ${where()}`);
      p++;
      return { kind: 'null', field, negated };
    }
    let negated = false;
    if (isWord('not')) {
      negated = true;
      p++;
      if (!isWord('in')) throw new FilterSyntaxError(`expected in after not ${where()}`);
    }
    if (isWord('in')) {
      p++;
      expectPunct('(');
      const values = [literal()];
      while (isPunct(',')) {
        p++;
        values.push(literal());
      }
      expectPunct(')');
      return { kind: 'in', field, values, negated };
    }
    const opTok = peek();
    if (opTok?.kind !== 'op' || !COMPARISONS.has(opTok.text))
      throw new FilterSyntaxError(`expected a comparison (=, !=, <, <=, >, >=, in, is null) after ${field} ${where()}`);
    p++;
    const op: CompareOp = opTok.text === '=' ? '==' : opTok.text === '<>' ? '!=' : (opTok.text as CompareOp);
    const value = literal();
    return { kind: 'compare', field, op, value };
  }

  function primary(): FilterNode {
    if (isPunct('(')) {
      p++;
      const inner = orExpr();
      expectPunct(')');
      return inner;
    }
    return comparison();
  }

  function notExpr(): FilterNode {
    if (isWord('not')) {
      p++;
      return { kind: 'not', of: notExpr() };
    }
    return primary();
  }

  /** operand (word operand)*: one operand as it is, several joined as `kind`. */
  function joined(word: 'and' | 'or', kind: 'all' | 'any', operand: () => FilterNode): FilterNode {
    const parts = [operand()];
    while (isWord(word)) {
      p++;
      parts.push(operand());
    }
    return parts.length === 1 ? parts[0]! : { kind, of: parts };
  }

  const andExpr = (): FilterNode => joined('and', 'all', notExpr);
  const orExpr = (): FilterNode => joined('or', 'any', andExpr);

  if (tokens.length === 0) throw new FilterSyntaxError('the filter is empty');
  const node = orExpr();
  if (p < tokens.length) throw new FilterSyntaxError(`unexpected text ${where()}`);
  return node;
}

/** Every field a filter reads, for checking against the layer's fields. */
export function filterFields(node: FilterNode): string[] {
  const out = new Set<string>();
  const walk = (n: FilterNode): void => {
    if (n.kind === 'all' || n.kind === 'any') n.of.forEach(walk);
    else if (n.kind === 'not') walk(n.of);
    else out.add(n.field);
  };
  walk(node);
  return [...out];
}

/** The filter as a MapLibre boolean expression. Ordering comparisons are false where the property is missing or of another type. */
export function filterExpression(node: FilterNode): ExpressionSpecification {
  switch (node.kind) {
    case 'all':
      return ['all', ...node.of.map(filterExpression)];
    case 'any':
      return ['any', ...node.of.map(filterExpression)];
    case 'not':
      return ['!', filterExpression(node.of)];
    case 'null':
      return [node.negated ? '!=' : '==', ['get', node.field], null];
    case 'in': {
      const test: ExpressionSpecification = ['in', ['get', node.field], ['literal', node.values]];
      return node.negated ? ['!', test] : test;
    }
    case 'compare': {
      const get: ExpressionSpecification = ['get', node.field];
      if (node.op === '==' || node.op === '!=') return [node.op, get, node.value];
      // `<` and friends need both sides of one type: guard, then assert.
      const type = typeof node.value === 'number' ? 'number' : typeof node.value === 'string' ? 'string' : 'boolean';
      if (type === 'boolean') return false as unknown as ExpressionSpecification;
      const typed: ExpressionSpecification = type === 'number' ? ['number', get] : ['string', get];
      return ['all', ['==', ['typeof', get], type], [node.op, typed, node.value as number]] as ExpressionSpecification;
    }
  }
}

/** The filter as an SQLite WHERE clause (for counting matches in the worker). */
export function filterSql(node: FilterNode): string {
  const id = quoteIdentifier;
  const lit = (v: Literal) => (typeof v === 'string' ? quoteLiteral(v) : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  switch (node.kind) {
    case 'all':
      return `(${node.of.map(filterSql).join(' AND ')})`;
    case 'any':
      return `(${node.of.map(filterSql).join(' OR ')})`;
    case 'not':
      return `(NOT ${filterSql(node.of)})`;
    case 'null':
      return `(${id(node.field)} IS ${node.negated ? 'NOT ' : ''}NULL)`;
    case 'in':
      return `(${id(node.field)} ${node.negated ? 'NOT ' : ''}IN (${node.values.map(lit).join(', ')}))`;
    case 'compare': {
      const op = node.op === '==' ? '=' : node.op;
      return `(${id(node.field)} ${op} ${lit(node.value)})`;
    }
  }
}
