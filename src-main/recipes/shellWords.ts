/**
 * Shell words for the recipe's script (`#!/bin/sh`, POSIX). Every literal is single-quoted (a
 * quote inside becomes `'\''`), every variable is used inside double quotes, and comments are
 * one line of printable text: nothing a recipe carries — layer names, values with quotes,
 * `$()`, backticks or newlines — can become shell syntax.
 */

/** A piece of one shell word: literal text, or the value of a shell variable. */
export type Part = { lit: string } | { var: string };
export type Word = readonly Part[];

export const lit = (text: string): Word => [{ lit: text }];
export const ref = (name: string): Word => [{ var: checkVarName(name) }];
/** One word made of several pieces (`"$out"'/step1.gpkg'`). */
export const join = (...words: Word[]): Word => words.flat();

function checkVarName(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a shell variable name: ${name}`);
  return name;
}

/** `'text'` with each `'` closed, escaped and reopened; NUL cannot be in a shell word at all. */
export function singleQuoted(text: string): string {
  if (text.includes('\0')) throw new Error('A shell word cannot hold a NUL character');
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Characters that mean nothing to sh: a literal made only of them needs no quotes (`ogr2ogr`, `EPSG:32633`). */
const PLAIN = /^[A-Za-z0-9_.,:+/@%-]+$/;

export function renderWord(word: Word): string {
  if (word.length === 0) return "''";
  return word.map((p) => ('lit' in p ? (PLAIN.test(p.lit) ? p.lit : singleQuoted(p.lit)) : `"\${${p.var}}"`)).join('');
}

export function renderCommand(words: readonly Word[]): string {
  return words.map(renderWord).join(' ');
}

/** `name=value` where value is one word. */
export function assign(name: string, value: Word): string {
  return `${checkVarName(name)}=${renderWord(value)}`;
}

/** A comment line: control characters (newlines included) become spaces, so it stays one line. */
export function comment(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  return `# ${text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ')}`;
}
