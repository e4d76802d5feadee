/**
 * A tiny tokenizer for pretty-printed JSON, so argument views can colour keys, strings and
 * numbers with plain React spans (no HTML strings, nothing to escape). It never throws: text
 * it does not recognise comes back as `plain`.
 */
export type JsonTokenKind = 'key' | 'string' | 'number' | 'literal' | 'punct' | 'plain';

export interface JsonToken {
  kind: JsonTokenKind;
  text: string;
}

const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const LITERAL = /^(?:true|false|null)\b/;
const PLAIN = /^[^"\-\d{}[\],:tfn]+/;

/** End index (exclusive) of the string literal opening at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') i += 2;
    else if (ch === '"') return i + 1;
    else i += 1;
  }
  return text.length;
}

/** A string followed (after spaces) by a colon is an object key. */
function isKey(text: string, end: number): boolean {
  let i = end;
  while (text[i] === ' ' || text[i] === '\t') i += 1;
  return text[i] === ':';
}

export function tokenizeJson(text: string): JsonToken[] {
  const tokens: JsonToken[] = [];
  const push = (kind: JsonTokenKind, piece: string) => {
    const last = tokens.at(-1);
    if (last && last.kind === kind && (kind === 'plain' || kind === 'punct')) last.text += piece;
    else tokens.push({ kind, text: piece });
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const rest = text.slice(i, i + 64);
    if (ch === '"') {
      const end = stringEnd(text, i);
      push(isKey(text, end) ? 'key' : 'string', text.slice(i, end));
      i = end;
    } else if ('{}[],:'.includes(ch)) {
      push('punct', ch);
      i += 1;
    } else if (NUMBER.test(rest)) {
      const match = NUMBER.exec(text.slice(i))![0];
      push('number', match);
      i += match.length;
    } else if (LITERAL.test(rest)) {
      const match = LITERAL.exec(rest)![0];
      push('literal', match);
      i += match.length;
    } else {
      const match = PLAIN.exec(text.slice(i))?.[0] ?? ch;
      push('plain', match);
      i += match.length;
    }
  }
  return tokens;
}

/** Pretty JSON for display; values JSON cannot hold (undefined, functions) show as `—`. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? '—';
  } catch {
    return String(value);
  }
}
