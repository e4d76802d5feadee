import { inspect } from 'node:util';
import { Script } from 'node:vm';
import type { CodeError } from '../code/codeProtocol.js';

/**
 * How a snippet is compiled, and its errors as the model reads them: shared by the snippet
 * host (which runs it) and main (which checks the syntax before the approval dialog).
 */

export const SNIPPET_FILE = 'snippet.js';

/**
 * Compiles (never runs) the snippet as the body of an async function: line 1 of the snippet
 * is line 1 of the script, columns unchanged (the wrapper's own line is line 0).
 */
export function compileSnippet(code: string): { ok: true; script: Script } | { ok: false; error: CodeError } {
  try {
    return { ok: true, script: new Script(`(async () => {\n${code}\n})()`, { filename: SNIPPET_FILE, lineOffset: -1 }) };
  } catch (err) {
    return { ok: false, error: syntaxError(err) };
  }
}

/** `snippet.js:3` then the line, then a caret line under the offending token. */
export function syntaxError(err: unknown): CodeError {
  const e = err as Error;
  const lines = String(e?.stack ?? '').split('\n');
  const line = Number(/^snippet\.js:(\d+)/.exec(lines[0] ?? '')?.[1]);
  const caret = lines.findIndex((l, i) => i > 0 && /^\s*\^+\s*$/.test(l));
  const column = caret > 0 ? (lines[caret] ?? '').indexOf('^') + 1 : undefined;
  return {
    kind: 'syntax_error',
    message: `${e?.name ?? 'SyntaxError'}: ${e?.message ?? String(err)}`,
    ...(Number.isFinite(line) && line > 0 ? { line } : {}),
    ...(column ? { column } : {}),
  };
}

/** The exception's message and its frames inside the snippet (never the host's own). */
export function exception(err: unknown, snippetLines: number): CodeError {
  const isError = err !== null && typeof err === 'object' && 'message' in err;
  const e = err as Error;
  const name = isError ? String(e.name ?? 'Error') : 'Thrown value';
  const message = isError ? `${name}: ${String(e.message)}` : `${name}: ${inspect(err, { depth: 2 })}`;
  const frames: { text: string; line: number; column: number }[] = [];
  for (const l of String((isError && e.stack) || '').split('\n')) {
    const m = /^\s+at (?:(.*?) \()?snippet\.js:(\d+):(\d+)\)?$/.exec(l);
    if (!m) continue;
    const fn = m[1] && m[1] !== '<anonymous>' ? m[1] : null;
    const line = Number(m[2]);
    const column = Number(m[3]);
    if (line < 1 || line > snippetLines) continue; // the wrapper's own lines
    frames.push({ text: `at ${fn ? `${fn} ` : ''}(line ${line}, column ${column})`, line, column });
  }
  const memory = /allocation failed|Invalid array length|Invalid typed array length|out of memory/i.test(String(e?.message ?? ''));
  return {
    kind: memory ? 'memory_limit' : 'exception',
    message,
    ...(frames[0] ? { line: frames[0].line, column: frames[0].column } : {}),
    ...(frames.length ? { stack: frames.map((f) => f.text) } : {}),
  };
}
