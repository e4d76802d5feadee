/**
 * A tokenizer for SQLite's SQL that follows SQLite's own lexical rules (tokenize.c), so that
 * what the checkers see is what SQLite will parse: the same whitespace (only space, tab, CR,
 * LF and form feed — not NBSP or other Unicode spaces), the same identifier characters (ASCII
 * letters, digits, `_`, `$` and every non-ASCII character), strings with doubled quotes,
 * "double", [bracket] and `backtick` quoted identifiers, blobs x'…', numbers, `--` and
 * `/* *\/` comments. Where SQLite would see an illegal token this refuses the text, so the two
 * can never disagree about where a literal ends. Comments are returned apart from the tokens.
 */

import { createLexer, type QuoteRule, type Token } from '../text/lexer.js';

export class SqlSyntaxError extends Error {
  override readonly name = 'SqlSyntaxError';
}

/** Operators and punctuation, longest first. `!` alone, `?`, `:`, `@`, `#` and `$` are not here. */
const OPERATORS = [
  '->>',
  '||',
  '->',
  '<=',
  '>=',
  '<>',
  '!=',
  '==',
  '<<',
  '>>',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  ',',
  '.',
  ';',
  '&',
  '|',
  '~',
];

/** SQLite's whitespace: space, tab, LF, FF, CR (a vertical tab is an illegal token to SQLite). */
export function isSqlSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';
}

/**
 * A bare identifier: first an ASCII letter, `_` or any non-ASCII character; then also digits
 * and `$` (SQLite's IdChar).
 */
const WORD = /[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/;

function isIdChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
}

/** ASCII-only upper case, as SQLite compares keywords and names (`ſ` is not `S` to SQLite). */
export function asciiUpper(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

/** ASCII-only lower case, as SQLite compares function and table names. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

const NUMBER = /0[xX][0-9a-fA-F]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;

function describeChar(c: string): string {
  const code = c.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`;
}

/** A '…' string and a "…" quoted name, a doubled quote inside standing for one (shared with the expression checker). */
export const SQL_STRING: QuoteRule = { kind: 'string', open: "'", close: "'", doubled: true, name: 'string' };
export const SQL_QUOTED_NAME: QuoteRule = { kind: 'ident', open: '"', close: '"', doubled: true, name: 'quoted name' };

const blob = (open: string): QuoteRule => ({
  kind: 'blob',
  open,
  close: "'",
  doubled: true,
  name: 'blob literal',
  check: (raw) => {
    const hex = raw.slice(2, -1);
    return /^(?:[0-9a-fA-F]{2})*$/.test(hex) ? null : `a malformed blob literal x'${hex}' (an even number of hex digits is needed)`;
  },
});

/** SQLite's lexical rules; a word's `key` is its ASCII upper-case form. */
const lexSql = createLexer({
  space: (c) => isSqlSpace(c),
  comments: { line: '--', block: ['/*', '*/', '/* comment'] },
  quotes: [
    SQL_STRING,
    SQL_QUOTED_NAME,
    { kind: 'ident', open: '`', close: '`', doubled: true, name: 'quoted name' },
    { kind: 'ident', open: '[', close: ']', doubled: false, name: 'quoted name' },
    blob("x'"),
    blob("X'"),
  ],
  number: NUMBER,
  numberCheck: (sql, start, end) =>
    isIdChar(sql[end])
      ? `a malformed number starting at character ${start + 1}: '${sql.slice(start, Math.min(sql.length, end + 8))}'`
      : null,
  word: WORD,
  foldWord: asciiUpper,
  refuse: (sql, at) => {
    const c = sql[at]!;
    return '?:@$#'.includes(c)
      ? `a parameter ('${c}…') at character ${at + 1}; parameters cannot be bound here, write the values into the query`
      : null;
  },
  operators: OPERATORS,
  messages: {
    unexpected: (c, at) => `an unexpected character ${describeChar(c)} at character ${at + 1}`,
    unterminated: (name, at) => `an unterminated ${name} starting at character ${at + 1}`,
  },
  error: (message) => new SqlSyntaxError(message),
});

/**
 * The tokens and comments of `sql`; throws SqlSyntaxError where SQLite would see an illegal
 * token. A word's `key` is its ASCII upper-case form; a string's or quoted name's `text` is
 * its unescaped value; a comment's `text` is without its delimiters.
 */
export function tokenizeSql(sql: string): { tokens: Token[]; comments: Token[] } {
  const all = lexSql(sql);
  return { tokens: all.filter((t) => t.kind !== 'comment'), comments: all.filter((t) => t.kind === 'comment') };
}

/** The text of `sql` with every comment replaced by one space (the same tokens, nothing else). */
export function withoutComments(sql: string, comments: readonly Token[]): string {
  let out = '';
  let at = 0;
  for (const c of comments) {
    out += sql.slice(at, c.start) + ' ';
    at = c.end;
  }
  return out + sql.slice(at);
}
