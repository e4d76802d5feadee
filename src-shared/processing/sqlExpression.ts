/**
 * The expressions of select_by_attribute and field_calculator — SQLite-dialect expressions that
 * GDAL evaluates inside a SELECT the worker builds — and the attribute filter (`where`) of
 * inspect_query_features. Only an expression may pass — no statement, no sub-query, no comment,
 * no function outside the scalar part of the allow-list in src-shared/sql/sqlFunctions.ts
 * (GDAL and SpatiaLite also register functions that read files, open datasources or reach the
 * network) — and the text is rewritten from its tokens: every identifier becomes a quoted field
 * name and every call a bare allowed function name, so what was checked is exactly what runs.
 * Checked twice: in `prepare` (syntax and functions, before the approval dialog) and in the
 * worker (against the layer's real field names).
 */

import { quoteIdentifier } from '../sql/quote.js';
import { AGGREGATE_WHEN_ONE_ARGUMENT, functionRefusal, isAllowedFunction } from '../sql/sqlFunctions.js';
import { asciiLower, SQL_QUOTED_NAME, SQL_STRING } from '../sql/sqlTokens.js';
import { createLexer, type Token } from '../text/lexer.js';

/** The SQL quoting, for the worker modules that build SQL around checked expressions. */

/**
 * SQLite's reserved words among the keywords below: never a function name, so one may stand
 * before '(' (`IN (…)`, `CAST (…)`, `NOT (…)`). Any other word before '(' — a non-reserved keyword
 * such as like or true, a field name, a quoted name — is a call, and must be an allowed function.
 */
const RESERVED = new Set([
  'and',
  'or',
  'not',
  'is',
  'null',
  'between',
  'in',
  'case',
  'when',
  'then',
  'else',
  'cast',
  'as',
  'escape',
  'collate',
]);

/** Keywords an expression may contain; everything else that is a word must be a field or a function. */
const KEYWORDS = new Set([...RESERVED, 'like', 'glob', 'end', 'integer', 'real', 'text', 'numeric', 'true', 'false', 'nocase']);

/** Type names of CAST (x AS type): `AS NUMERIC(10)` is a type, not a call. */
const TYPE_NAMES = new Set(['integer', 'real', 'text', 'numeric', 'blob']);

export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
}

/**
 * The tokens of an expression: 'string…' and "quoted names" with doubled quotes, numbers,
 * words of Unicode letters, digits and _ (starting with a letter of the Basic Multilingual
 * Plane or _), operators. A comment or ';' is refused outright.
 */
const lexExpression = createLexer({
  space: (c) => /\s/.test(c),
  quotes: [SQL_STRING, SQL_QUOTED_NAME],
  number: /0x[0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\./,
  word: /(?![\u{10000}-\u{10FFFF}])[\p{L}_][\p{L}\p{N}_]*/u,
  foldWord: asciiLower,
  refuse: (expr, at) => {
    if (expr.startsWith('--', at) || expr.startsWith('/*', at)) return 'comments are not allowed in an expression';
    if (expr[at] === ';') return "';' is not allowed: give one expression, not a statement";
    return null;
  },
  operators: ['||', '<=', '>=', '<>', '!=', '==', '<<', '>>', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '&', '|', '~'],
  messages: {
    unexpected: (c, at) => `unexpected character '${c}' at position ${at + 1}`,
    unterminated: (name, at) => `unterminated ${name} starting at position ${at + 1}`,
  },
  error: (message) => new ExpressionError(message),
});

export interface CheckedExpression {
  /** The expression with every field quoted and resolved to its real spelling. */
  sql: string;
  fieldsUsed: string[];
  functionsUsed: string[];
}

/**
 * Checks an expression and rewrites it for SQL. With `fields`, each identifier must name one of
 * them (case-insensitively) or `geom`, the geometry; without, only the syntax is checked.
 */
export function checkExpression(expr: string, fields?: readonly string[]): CheckedExpression {
  return check(expr, { fields, geometry: 'geom', keywords: KEYWORDS });
}

/** OGR SQL's case-insensitive LIKE, valid in a where filter of the non-SQLite drivers. */
const WHERE_KEYWORDS = new Set([...KEYWORDS, 'ilike']);

/**
 * Checks an attribute filter (the `where` of inspect_query_features), which GDAL hands to OGR
 * SQL or — for GeoPackage and SQLite sources — to SQLite, where GDAL's and SpatiaLite's file
 * and network functions exist too. The same rules as checkExpression; with `fields`, each name
 * must be a field or one of `specialNames` (FID, the geometry column…), case-insensitively.
 */
export function checkWhere(where: string, fields?: readonly string[], specialNames: readonly string[] = []): CheckedExpression {
  return check(where, { fields: fields ? [...fields, ...specialNames] : undefined, geometry: null, keywords: WHERE_KEYWORDS });
}

interface CheckOptions {
  fields: readonly string[] | undefined;
  /** A name written bare for the geometry (expressions: geom), or null. */
  geometry: string | null;
  keywords: ReadonlySet<string>;
}

function check(expr: string, options: CheckOptions): CheckedExpression {
  if (!expr.trim()) throw new ExpressionError('the expression is empty');
  const tokens = lexExpression(expr);
  const out: string[] = [];
  const fieldsUsed = new Set<string>();
  const functionsUsed = new Set<string>();
  let depth = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    const next = tokens[k + 1];
    const prev = tokens[k - 1];
    if (t.kind === 'op') {
      if (t.text === '(') depth++;
      if (t.text === ')' && --depth < 0) throw new ExpressionError("unbalanced ')'");
      out.push(t.text);
    } else if (t.kind === 'string' || t.kind === 'number') {
      const written = expr.slice(t.start, t.end);
      if (next?.kind === 'op' && next.text === '(')
        throw new ExpressionError(`${written} cannot be called: only a function name can stand before '('`);
      out.push(written);
    } else {
      const quoted = t.kind === 'ident';
      const lower = asciiLower(t.text);
      const beforeParen = next?.kind === 'op' && next.text === '(';
      const keyword = !quoted && options.keywords.has(lower);
      // SQLite calls whatever name stands before '(' — a quoted one or a non-reserved keyword too.
      const typeName = keyword && TYPE_NAMES.has(lower) && prev?.kind === 'word' && prev.key === 'as';
      const isCall = beforeParen && !(keyword && (RESERVED.has(lower) || typeName));
      if (isCall) {
        if (!isAllowedFunction(t.text, 'expression')) throw new ExpressionError(`function ${functionRefusal(t.text, 'expression')}`);
        if (AGGREGATE_WHEN_ONE_ARGUMENT.has(lower) && argumentCount(tokens, k + 1) < 2) {
          throw new ExpressionError(`${t.text}() needs at least two arguments here (it compares values within one feature)`);
        }
        functionsUsed.add(lower);
        out.push(lower);
      } else if (keyword) {
        out.push(lower.toUpperCase());
      } else if (!quoted && (lower === 'select' || lower === 'from' || lower === 'attach' || lower === 'pragma')) {
        throw new ExpressionError(`'${t.text}' is not allowed: give an expression, not a query`);
      } else {
        out.push(resolveField(t.text, options, fieldsUsed));
      }
    }
  }
  if (depth !== 0) throw new ExpressionError("unbalanced '('");
  return { sql: out.join(' '), fieldsUsed: [...fieldsUsed], functionsUsed: [...functionsUsed] };
}

function resolveField(name: string, options: CheckOptions, used: Set<string>): string {
  const { fields, geometry } = options;
  if (!fields) return quoteIdentifier(name);
  if (geometry && asciiLower(name) === geometry) return geometry;
  const real = fields.find((f) => f === name) ?? fields.find((f) => asciiLower(f) === asciiLower(name));
  if (!real) {
    const geom = geometry ? `; the geometry is ${geometry}` : '';
    throw new ExpressionError(`no field '${name}'; fields: ${fields.join(', ') || '(none)'}${geom}; quote text values with single quotes`);
  }
  used.add(real);
  return quoteIdentifier(real);
}

/** Number of arguments of the call whose '(' is tokens[open]. */
function argumentCount(tokens: Token[], open: number): number {
  let depth = 0;
  let commas = 0;
  let empty = true;
  for (let k = open; k < tokens.length; k++) {
    const t = tokens[k]!;
    const op = t.kind === 'op' ? t.text : null;
    if (op === '(') {
      if (depth > 0) empty = false;
      depth++;
    } else if (op === ')') {
      if (--depth === 0) return empty ? 0 : commas + 1;
    } else if (op === ',' && depth === 1) {
      commas++;
    } else {
      empty = false;
    }
  }
  return empty ? 0 : commas + 1;
}

/** A zod-friendly check of the syntax alone: the message, or null when the expression is fine. */
export function expressionSyntaxProblem(expr: string): string | null {
  return problem(() => checkExpression(expr));
}

/** The same for an attribute filter (syntax and functions; the fields are checked in the worker). */
export function whereSyntaxProblem(where: string): string | null {
  return problem(() => checkWhere(where));
}

function problem(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof ExpressionError) return err.message;
    throw err;
  }
}
