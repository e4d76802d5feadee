/**
 * The expressions of select_by_attribute and field_calculator: SQLite-dialect expressions that
 * GDAL evaluates inside a SELECT the worker builds. Only an expression may pass — no statement,
 * no sub-query, no comment, no function outside the list below (SpatiaLite also has functions
 * that read and write files) — and every identifier is rewritten as a quoted field name, so
 * the text is safe to splice into SQL. Checked twice: in `prepare` (syntax, before the approval
 * dialog) and in the worker (against the layer's real field names).
 */

/** Scalar functions an expression may call, by lower-case name. Aggregates are left out on purpose. */
const FUNCTIONS = new Set([
  // SQLite core
  'abs', 'coalesce', 'ifnull', 'iif', 'nullif', 'instr', 'length', 'lower', 'upper', 'ltrim', 'rtrim', 'trim',
  'replace', 'round', 'substr', 'substring', 'printf', 'format', 'typeof', 'hex', 'unicode', 'char', 'like', 'glob',
  'date', 'time', 'datetime', 'julianday', 'strftime', 'min', 'max',
  // SpatiaLite math
  'acos', 'asin', 'atan', 'atan2', 'ceil', 'ceiling', 'cos', 'cot', 'degrees', 'exp', 'floor', 'ln', 'log', 'log10',
  'log2', 'mod', 'pi', 'pow', 'power', 'radians', 'sign', 'sin', 'sqrt', 'square', 'tan',
  // SpatiaLite geometry: measures and simple accessors
  'st_area', 'st_length', 'st_perimeter', 'st_x', 'st_y', 'st_z', 'st_centroid', 'st_pointonsurface', 'st_transform',
  'st_numpoints', 'st_npoints', 'st_numgeometries', 'st_numinteriorrings', 'st_geometrytype', 'geometrytype',
  'st_isvalid', 'st_isempty', 'st_minx', 'st_maxx', 'st_miny', 'st_maxy', 'st_srid', 'st_astext', 'astext',
  'st_envelope', 'st_convexhull', 'st_buffer', 'st_simplify', 'st_distance', 'geodesiclength', 'greatcirclelength',
  'st_dimension', 'st_startpoint', 'st_endpoint',
]);

/** Keywords an expression may contain; everything else that is a word must be a field or a function. */
const KEYWORDS = new Set([
  'and', 'or', 'not', 'is', 'null', 'like', 'glob', 'between', 'in', 'case', 'when', 'then', 'else', 'end', 'cast',
  'as', 'integer', 'real', 'text', 'numeric', 'true', 'false', 'escape', 'collate', 'nocase',
]);

/** Functions SQLite treats as aggregates when called with one argument. */
const AGGREGATE_WITH_ONE_ARG = new Set(['min', 'max']);

export type Token =
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'word'; text: string; quoted: boolean }
  | { kind: 'op'; text: string };

export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
}

const OPERATORS = ['||', '<=', '>=', '<>', '!=', '==', '<<', '>>', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '&', '|', '~'];

export function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      const end = closing(expr, i, "'");
      tokens.push({ kind: 'string', text: expr.slice(i, end + 1) });
      i = end + 1;
    } else if (c === '"') {
      const end = closing(expr, i, '"');
      tokens.push({ kind: 'word', text: expr.slice(i + 1, end).replace(/""/g, '"'), quoted: true });
      i = end + 1;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(expr[i + 1] ?? ''))) {
      const m = /^(?:0x[0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.)/.exec(expr.slice(i))!;
      tokens.push({ kind: 'number', text: m[0] });
      i += m[0].length;
    } else if (/[\p{L}_]/u.test(c)) {
      const m = /^[\p{L}\p{N}_]+/u.exec(expr.slice(i))!;
      tokens.push({ kind: 'word', text: m[0], quoted: false });
      i += m[0].length;
    } else {
      if (expr.startsWith('--', i) || expr.startsWith('/*', i)) throw new ExpressionError('comments are not allowed in an expression');
      if (c === ';') throw new ExpressionError("';' is not allowed: give one expression, not a statement");
      const op = OPERATORS.find((o) => expr.startsWith(o, i));
      if (!op) throw new ExpressionError(`unexpected character '${c}' at position ${i + 1}`);
      tokens.push({ kind: 'op', text: op });
      i += op.length;
    }
  }
  return tokens;
}

/** Index of the quote closing the one at `start`; a doubled quote is an escaped one. */
function closing(expr: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < expr.length) {
    if (expr[i] === quote) {
      if (expr[i + 1] === quote) i += 2;
      else return i;
    } else i++;
  }
  throw new ExpressionError(`unterminated ${quote === "'" ? 'string' : 'quoted name'} starting at position ${start + 1}`);
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

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
  if (!expr.trim()) throw new ExpressionError('the expression is empty');
  const tokens = tokenize(expr);
  const out: string[] = [];
  const fieldsUsed = new Set<string>();
  const functionsUsed = new Set<string>();
  let depth = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    const next = tokens[k + 1];
    if (t.kind === 'op') {
      if (t.text === '(') depth++;
      if (t.text === ')' && --depth < 0) throw new ExpressionError("unbalanced ')'");
      out.push(t.text);
    } else if (t.kind === 'string' || t.kind === 'number') {
      out.push(t.text);
    } else {
      const lower = t.text.toLowerCase();
      const isCall = !t.quoted && next?.kind === 'op' && next.text === '(';
      if (!t.quoted && KEYWORDS.has(lower)) {
        out.push(lower.toUpperCase());
      } else if (isCall) {
        if (!FUNCTIONS.has(lower)) throw new ExpressionError(`function ${t.text}() is not allowed; allowed: ${[...FUNCTIONS].sort().join(', ')}`);
        if (AGGREGATE_WITH_ONE_ARG.has(lower) && argumentCount(tokens, k + 1) < 2) {
          throw new ExpressionError(`${t.text}() needs at least two arguments here (it compares values within one feature)`);
        }
        functionsUsed.add(lower);
        out.push(lower);
      } else if (lower === 'select' || lower === 'from' || lower === 'attach' || lower === 'pragma') {
        throw new ExpressionError(`'${t.text}' is not allowed: give an expression, not a query`);
      } else {
        out.push(resolveField(t.text, fields, fieldsUsed));
      }
    }
  }
  if (depth !== 0) throw new ExpressionError("unbalanced '('");
  return { sql: out.join(' '), fieldsUsed: [...fieldsUsed], functionsUsed: [...functionsUsed] };
}

function resolveField(name: string, fields: readonly string[] | undefined, used: Set<string>): string {
  if (!fields) return quoteIdentifier(name);
  if (name.toLowerCase() === 'geom') return 'geom';
  const real = fields.find((f) => f === name) ?? fields.find((f) => f.toLowerCase() === name.toLowerCase());
  if (!real) {
    throw new ExpressionError(`no field '${name}'; fields: ${fields.join(', ') || '(none)'}; the geometry is geom; quote text values with single quotes`);
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
  try {
    checkExpression(expr);
    return null;
  } catch (err) {
    if (err instanceof ExpressionError) return err.message;
    throw err;
  }
}
