/**
 * A tokenizer for SQLite's SQL that follows SQLite's own lexical rules (tokenize.c), so that
 * what the checkers see is what SQLite will parse: the same whitespace (only space, tab, CR,
 * LF and form feed — not NBSP or other Unicode spaces), the same identifier characters (ASCII
 * letters, digits, `_`, `$` and every non-ASCII character), strings with doubled quotes,
 * "double", [bracket] and `backtick` quoted identifiers, blobs x'…', numbers, `--` and
 * `/* *\/` comments. Where SQLite would see an illegal token this refuses the text, so the two
 * can never disagree about where a literal ends. Comments are returned apart from the tokens.
 */

export type SqlToken =
  /** A bare word: a keyword or an unquoted identifier. `upper` is its ASCII upper-case form. */
  | { kind: 'word'; text: string; upper: string; start: number; end: number }
  /** A quoted identifier; `text` is its unescaped name. */
  | { kind: 'ident'; text: string; quote: '"' | '[' | '`'; start: number; end: number }
  /** A '…' literal; `text` is its unescaped value. */
  | { kind: 'string'; text: string; start: number; end: number }
  | { kind: 'blob'; text: string; start: number; end: number }
  | { kind: 'number'; text: string; start: number; end: number }
  | { kind: 'op'; text: string; start: number; end: number };

export interface SqlComment {
  /** The comment's text without its delimiters. */
  text: string;
  start: number;
  end: number;
}

export class SqlSyntaxError extends Error {
  override readonly name = 'SqlSyntaxError';
}

/** Operators and punctuation, longest first. `!` alone, `?`, `:`, `@`, `#` and `$` are not here. */
const OPERATORS = ['->>', '||', '->', '<=', '>=', '<>', '!=', '==', '<<', '>>', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '.', ';', '&', '|', '~'];

/** SQLite's whitespace: space, tab, LF, FF, CR (a vertical tab is an illegal token to SQLite). */
export function isSqlSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';
}

/** First character of a bare identifier: an ASCII letter, `_`, or any non-ASCII character. */
function isIdStart(c: string | undefined): boolean {
  if (c === undefined) return false;
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c.charCodeAt(0) >= 0x80;
}

/** Later characters of a bare identifier (SQLite's IdChar): also digits and `$`. */
function isIdChar(c: string | undefined): boolean {
  return isIdStart(c) || (c !== undefined && ((c >= '0' && c <= '9') || c === '$'));
}

/** ASCII-only upper case, as SQLite compares keywords and names (`ſ` is not `S` to SQLite). */
export function asciiUpper(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

/** ASCII-only lower case, as SQLite compares function and table names. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

const NUMBER = /^(?:0[xX][0-9a-fA-F]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)/;

function describeChar(c: string): string {
  const code = c.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`;
}

/** Index just past the quote closing the one at `start`; a doubled quote is an escaped one. */
function closeQuoted(sql: string, start: number, close: string, what: string): number {
  if (close === ']') {
    const k = sql.indexOf(']', start + 1);
    if (k < 0) throw new SqlSyntaxError(`an unterminated ${what} starting at character ${start + 1}`);
    return k + 1;
  }
  let j = start + 1;
  for (;;) {
    const k = sql.indexOf(close, j);
    if (k < 0) throw new SqlSyntaxError(`an unterminated ${what} starting at character ${start + 1}`);
    if (sql[k + 1] === close) {
      j = k + 2;
      continue;
    }
    return k + 1;
  }
}

/** The tokens and comments of `sql`; throws SqlSyntaxError where SQLite would see an illegal token. */
export function tokenizeSql(sql: string): { tokens: SqlToken[]; comments: SqlComment[] } {
  const tokens: SqlToken[] = [];
  const comments: SqlComment[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (isSqlSpace(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i + 2);
      const end = nl < 0 ? sql.length : nl;
      comments.push({ text: sql.slice(i + 2, end), start: i, end });
      i = end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      if (close < 0) throw new SqlSyntaxError(`an unterminated /* comment starting at character ${i + 1}`);
      comments.push({ text: sql.slice(i + 2, close), start: i, end: close + 2 });
      i = close + 2;
    } else if (c === "'") {
      const end = closeQuoted(sql, i, "'", 'string');
      tokens.push({ kind: 'string', text: sql.slice(i + 1, end - 1).replace(/''/g, "'"), start: i, end });
      i = end;
    } else if (c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      const end = closeQuoted(sql, i, close, 'quoted name');
      const inner = sql.slice(i + 1, end - 1);
      tokens.push({ kind: 'ident', text: close === ']' ? inner : inner.split(close + close).join(close), quote: c, start: i, end });
      i = end;
    } else if ((c === 'x' || c === 'X') && sql[i + 1] === "'") {
      const end = closeQuoted(sql, i + 1, "'", 'blob literal');
      const hex = sql.slice(i + 2, end - 1);
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new SqlSyntaxError(`a malformed blob literal x'${hex}' (an even number of hex digits is needed)`);
      tokens.push({ kind: 'blob', text: sql.slice(i, end), start: i, end });
      i = end;
    } else if (isIdStart(c)) {
      let j = i + 1;
      while (j < sql.length && isIdChar(sql[j])) j++;
      const text = sql.slice(i, j);
      tokens.push({ kind: 'word', text, upper: asciiUpper(text), start: i, end: j });
      i = j;
    } else if ((c >= '0' && c <= '9') || (c === '.' && sql[i + 1] !== undefined && sql[i + 1]! >= '0' && sql[i + 1]! <= '9')) {
      const m = NUMBER.exec(sql.slice(i))!;
      const end = i + m[0].length;
      if (isIdChar(sql[end])) throw new SqlSyntaxError(`a malformed number starting at character ${i + 1}: '${sql.slice(i, Math.min(sql.length, end + 8))}'`);
      tokens.push({ kind: 'number', text: m[0], start: i, end });
      i = end;
    } else if (c === '?' || c === ':' || c === '@' || c === '$' || c === '#') {
      throw new SqlSyntaxError(`a parameter ('${c}…') at character ${i + 1}; parameters cannot be bound here, write the values into the query`);
    } else {
      const op = OPERATORS.find((o) => sql.startsWith(o, i));
      if (!op) throw new SqlSyntaxError(`an unexpected character ${describeChar(c)} at character ${i + 1}`);
      tokens.push({ kind: 'op', text: op, start: i, end: i + op.length });
      i += op.length;
    }
  }
  return { tokens, comments };
}

/** The text of `sql` with every comment replaced by one space (the same tokens, nothing else). */
export function withoutComments(sql: string, comments: readonly SqlComment[]): string {
  let out = '';
  let at = 0;
  for (const c of comments) {
    out += sql.slice(at, c.start) + ' ';
    at = c.end;
  }
  return out + sql.slice(at);
}
