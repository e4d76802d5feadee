import type { ExpressionSpecification } from 'maplibre-gl';

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

type Token =
  | { t: 'word'; v: string; pos: number }
  | { t: 'field'; v: string; pos: number }
  | { t: 'string'; v: string; pos: number }
  | { t: 'number'; v: number; pos: number }
  | { t: 'op'; v: string; pos: number }
  | { t: 'punct'; v: '(' | ')' | ','; pos: number };

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'null', 'true', 'false']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ t: 'punct', v: c, pos: i });
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      // SQL quoting: a doubled quote inside stands for itself.
      let j = i + 1;
      let s = '';
      for (;;) {
        if (j >= text.length) throw new FilterSyntaxError(`unclosed ${c} at position ${i + 1}`);
        if (text[j] === c) {
          if (text[j + 1] === c) {
            s += c;
            j += 2;
            continue;
          }
          break;
        }
        s += text[j];
        j++;
      }
      tokens.push(c === "'" ? { t: 'string', v: s, pos: i } : { t: 'field', v: s, pos: i });
      i = j + 1;
      continue;
    }
    const op = /^(==|!=|<>|<=|>=|=|<|>)/.exec(text.slice(i));
    if (op) {
      tokens.push({ t: 'op', v: op[1]!, pos: i });
      i += op[1]!.length;
      continue;
    }
    const num = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(i));
    if (num) {
      tokens.push({ t: 'number', v: Number(num[0]), pos: i });
      i += num[0].length;
      continue;
    }
    const word = /^[\p{L}_][\p{L}\p{N}_.]*/u.exec(text.slice(i));
    if (word) {
      tokens.push({ t: 'word', v: word[0], pos: i });
      i += word[0].length;
      continue;
    }
    throw new FilterSyntaxError(`unexpected '${c}' at position ${i + 1}`);
  }
  return tokens;
}

/** Parses a filter; throws FilterSyntaxError with the position of the problem. */
export function parseFilter(text: string): FilterNode {
  const tokens = tokenize(text);
  let p = 0;
  const peek = () => tokens[p];
  const isWord = (w: string, tok = peek()) => tok?.t === 'word' && tok.v.toLowerCase() === w;
  const where = () => {
    const tok = peek();
    return tok ? `at position ${tok.pos + 1}` : 'at the end';
  };
  const expectPunct = (v: '(' | ')' | ',') => {
    const tok = peek();
    if (tok?.t !== 'punct' || tok.v !== v) throw new FilterSyntaxError(`expected '${v}' ${where()}`);
    p++;
  };

  function literal(): Literal {
    const tok = peek();
    if (tok && (tok.t === 'string' || tok.t === 'number')) {
      p++;
      return tok.v;
    }
    if (isWord('true') || isWord('false')) {
      p++;
      return (tok!.v as string).toLowerCase() === 'true';
    }
    throw new FilterSyntaxError(`expected a number, a 'quoted text', true or false ${where()}`);
  }

  function comparison(): FilterNode {
    const tok = peek();
    let field: string;
    if (tok?.t === 'field') field = tok.v;
    else if (tok?.t === 'word' && !KEYWORDS.has(tok.v.toLowerCase())) field = tok.v;
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
      while (peek()?.t === 'punct' && peek()!.v === ',') {
        p++;
        values.push(literal());
      }
      expectPunct(')');
      return { kind: 'in', field, values, negated };
    }
    const opTok = peek();
    if (opTok?.t !== 'op') throw new FilterSyntaxError(`expected a comparison (=, !=, <, <=, >, >=, in, is null) after ${field} ${where()}`);
    p++;
    const op: CompareOp = opTok.v === '=' ? '==' : opTok.v === '<>' ? '!=' : (opTok.v as CompareOp);
    const value = literal();
    return { kind: 'compare', field, op, value };
  }

  function primary(): FilterNode {
    const tok = peek();
    if (tok?.t === 'punct' && tok.v === '(') {
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

  function andExpr(): FilterNode {
    const parts = [notExpr()];
    while (isWord('and')) {
      p++;
      parts.push(notExpr());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'all', of: parts };
  }

  function orExpr(): FilterNode {
    const parts = [andExpr()];
    while (isWord('or')) {
      p++;
      parts.push(andExpr());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'any', of: parts };
  }

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
  const id = (f: string) => `"${f.replace(/"/g, '""')}"`;
  const lit = (v: Literal) => (typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
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
