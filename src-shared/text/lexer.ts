/**
 * The one lexer of the app's small languages — the raster calculator's expressions, the
 * SQLite expressions and filters of the attribute tools, the rule filters of styles and the
 * read-only SQL queries. Each language says what its tokens are (a `Language`); the lexer reads
 * the text with it into one `Token` type with positions, or throws the language's own error.
 *
 * At each position, in this order: space is skipped; a comment is collected; a quoted token
 * (string, quoted name, prefixed literal such as SQL's x'…'), a number, a word; then what the
 * language refuses outright; then an operator; anything else is an unexpected character.
 */

export type TokenKind = 'word' | 'ident' | 'string' | 'blob' | 'number' | 'op' | 'comment';

export interface Token {
  kind: TokenKind;
  /**
   * word, number, op, blob: as written. string, ident: the text between the quotes, a doubled
   * quote read as one. comment: the text between its delimiters.
   */
  text: string;
  /** A word as the language compares words (keywords, function names), e.g. SQLite's ASCII upper case; else `text`. */
  key: string;
  /** string, ident, blob: what opened it (`'`, `"`, `[`, `x'`…). */
  quote?: string;
  /** Offset of the first character (0-based, UTF-16 units). */
  start: number;
  /** Offset just past the last character. */
  end: number;
}

export interface QuoteRule {
  kind: 'string' | 'ident' | 'blob';
  /** What opens it: a quote, or a prefix and a quote such as `x'`. */
  open: string;
  close: string;
  /** A doubled closing quote inside stands for one (SQL); otherwise the first closing quote ends it. */
  doubled: boolean;
  /** What an unterminated one is called in the message: `string`, `quoted name`… */
  name: string;
  /** A further check of the token as written: what is wrong with it, or null. */
  check?: (raw: string) => string | null;
}

export interface Language {
  /** Whether a character is space between tokens. */
  space: (c: string) => boolean;
  /** Comments, returned as tokens of kind 'comment'. */
  comments?: { line?: string; block?: readonly [open: string, close: string, name: string] };
  quotes?: readonly QuoteRule[];
  /** A number where this matches; `numberCheck` may refuse it (e.g. for what follows it). */
  number: RegExp;
  numberCheck?: (source: string, start: number, end: number) => string | null;
  /** A word where this matches. */
  word: RegExp;
  /** How words compare (the token's `key`); default: as written. */
  foldWord?: (word: string) => string;
  /** Text refused at the start of a token, before the operators: the message, or null. */
  refuse?: (source: string, at: number) => string | null;
  /** Operators and punctuation, a longer one before any it starts with. */
  operators: readonly string[];
  messages: {
    /** `c` is the character at `at` (0-based). */
    unexpected: (c: string, at: number) => string;
    /** `at` is the offset of the unclosed quote or comment (for `x'`, of the quote). Needed with quotes or block comments. */
    unterminated?: (name: string, at: number) => string;
  };
  /** The error a message is thrown as. */
  error: (message: string) => Error;
}

/** A reader of one language: the tokens of a text, or the language's error. */
export type Lexer = (source: string) => Token[];

function sticky(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.replace(/[gy]/g, '') + 'y');
}

/** Index just past the closing quote of the quoted token whose body starts at `from`, or -1. */
function closeQuote(source: string, from: number, rule: QuoteRule): number {
  let j = from;
  for (;;) {
    const k = source.indexOf(rule.close, j);
    if (k < 0) return -1;
    if (rule.doubled && source.startsWith(rule.close, k + rule.close.length)) {
      j = k + 2 * rule.close.length;
      continue;
    }
    return k + rule.close.length;
  }
}

/** The lexer of `language`; its regular expressions are compiled once, here. */
export function createLexer(language: Language): Lexer {
  const number = sticky(language.number);
  const word = sticky(language.word);
  const fold = language.foldWord ?? ((w: string) => w);
  const { messages, error } = language;
  const unterminated = (name: string, at: number) =>
    error(messages.unterminated?.(name, at) ?? `unterminated ${name} starting at position ${at + 1}`);
  const match = (re: RegExp, source: string, at: number): string | null => {
    re.lastIndex = at;
    return re.exec(source)?.[0] ?? null;
  };

  return (source) => {
    const tokens: Token[] = [];
    /** Adds a token; returns its end, where reading goes on. */
    const push = (kind: TokenKind, text: string, start: number, end: number, quote?: string): number => {
      const token: Token = { kind, text, key: kind === 'word' ? fold(text) : text, start, end };
      if (quote !== undefined) token.quote = quote;
      tokens.push(token);
      return end;
    };
    const comment = (i: number): number | null => {
      const { line, block } = language.comments ?? {};
      if (line && source.startsWith(line, i)) {
        const nl = source.indexOf('\n', i + line.length);
        const end = nl < 0 ? source.length : nl;
        return push('comment', source.slice(i + line.length, end), i, end);
      }
      if (block && source.startsWith(block[0], i)) {
        const close = source.indexOf(block[1], i + block[0].length);
        if (close < 0) throw unterminated(block[2], i);
        return push('comment', source.slice(i + block[0].length, close), i, close + block[1].length);
      }
      return null;
    };
    const quoted = (i: number): number | null => {
      const rule = language.quotes?.find((q) => source.startsWith(q.open, i));
      if (!rule) return null;
      const end = closeQuote(source, i + rule.open.length, rule);
      if (end < 0) throw unterminated(rule.name, i + rule.open.length - 1);
      const raw = source.slice(i, end);
      const problem = rule.check?.(raw);
      if (problem) throw error(problem);
      if (rule.kind === 'blob') return push('blob', raw, i, end, rule.open);
      const inner = source.slice(i + rule.open.length, end - rule.close.length);
      return push(rule.kind, rule.doubled ? inner.split(rule.close + rule.close).join(rule.close) : inner, i, end, rule.open);
    };

    let i = 0;
    while (i < source.length) {
      const c = source[i]!;
      if (language.space(c)) {
        i++;
        continue;
      }
      const after = comment(i) ?? quoted(i);
      if (after !== null) {
        i = after;
        continue;
      }
      const num = match(number, source, i);
      if (num) {
        const end = i + num.length;
        const problem = language.numberCheck?.(source, i, end);
        if (problem) throw error(problem);
        i = push('number', num, i, end);
        continue;
      }
      const w = match(word, source, i);
      if (w) {
        i = push('word', w, i, i + w.length);
        continue;
      }
      const refused = language.refuse?.(source, i);
      if (refused) throw error(refused);
      const op = language.operators.find((o) => source.startsWith(o, i));
      if (!op) throw error(messages.unexpected(c, i));
      i = push('op', op, i, i + op.length);
    }
    return tokens;
  };
}
