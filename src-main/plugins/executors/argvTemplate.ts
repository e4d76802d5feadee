/**
 * The argv template of a `command` plugin: each element is one argv entry of the program,
 * with `{name}` placeholders replaced by the call's arguments. There is no shell: a value
 * becomes text inside exactly one argv entry, whatever it contains (spaces, quotes, `;`,
 * `$(…)`, backticks, newlines). `{{` and `}}` stand for literal braces.
 *
 * Argument injection rule (a value must not become an option of the program):
 *   a value whose text starts with `-` is refused, unless
 *   (a) its placeholder directly follows literal template text ending in `=` — `--flag={x}`,
 *       `-co` `COMPRESS={x}`: the argv entry then begins with the template's own text, so the
 *       value can only be the option's value; or
 *   (b) the value is a plain negative decimal number (`-9999`, `-110.25`): GDAL's own
 *       arguments need them (`-a_nodata -9999`, `-projwin`, `-te`), and such text can name
 *       neither a file nor an option that takes a value.
 * Values are scalars only (string, finite number, boolean); NUL bytes are refused anywhere.
 */

import { parseTemplate } from '../../../src-shared/plugins/argTemplate.js';

/** One piece of a parsed template element (the plugins' one template parser, argTemplate.ts). */
type Piece = { kind: 'text'; text: string } | { kind: 'param'; name: string };

/** A refusal of a template or of the call's arguments, with a message naming the culprit. */
export class ArgvTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArgvTemplateError';
  }
}

const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/** Splits one template element into literal text and placeholders; throws on a malformed one. */
export function parseElement(element: string, index: number): Piece[] {
  if (element.includes('\0')) throw new ArgvTemplateError(`argv[${index}] contains a NUL byte.`);
  const parsed = parseTemplate(element);
  if (!parsed.ok) {
    throw new ArgvTemplateError(
      parsed.problem === 'placeholder'
        ? `argv[${index}] '${element}' has a malformed placeholder at ${parsed.at}: write {name} (letters, digits, _), or {{ for a literal brace.`
        : `argv[${index}] '${element}' has an unmatched '}' at ${parsed.at}: write }} for a literal brace.`,
    );
  }
  return parsed.parts.map((p) => ('param' in p ? { kind: 'param', name: p.param } : { kind: 'text', text: p.text }));
}

/** The placeholder names a template uses, in order of first use. */
export function templateParams(argv: readonly string[]): string[] {
  const names = new Set<string>();
  argv.forEach((element, i) => {
    for (const p of parseElement(element, i)) if (p.kind === 'param') names.add(p.name);
  });
  return [...names];
}

/**
 * Checks a template without running anything (the plugin manager's static phase): every
 * element parses, and, when `declared` is given, every placeholder names a declared parameter.
 */
export function validateArgvTemplate(argv: readonly string[], declared?: readonly string[]): void {
  const names = templateParams(argv);
  if (!declared) return;
  const unknown = names.filter((n) => !declared.includes(n));
  if (unknown.length)
    throw new ArgvTemplateError(
      `argv uses unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `{${n}}`).join(', ')}; declared parameters: ${declared.join(', ') || 'none'}.`,
    );
}

/** A scalar argument as argv text; throws for anything else. */
function valueText(name: string, value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ArgvTemplateError(`Argument '${name}' is not a finite number.`);
    text = String(value);
  } else if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else if (value === undefined || value === null)
    throw new ArgvTemplateError(`No value for placeholder {${name}}: argument '${name}' is missing.`);
  else
    throw new ArgvTemplateError(
      `Argument '${name}' must be a string, number or boolean, not ${Array.isArray(value) ? 'an array' : typeof value}.`,
    );
  if (text.includes('\0')) throw new ArgvTemplateError(`Argument '${name}' contains a NUL byte.`);
  return text;
}

/**
 * The argv entries of a call: one entry per template element, never split. Throws
 * `ArgvTemplateError` for an unknown placeholder, a missing or non-scalar value, a NUL byte, or
 * a value that could be read as an option (the rule at the top of this file).
 */
export function expandArgv(argv: readonly string[], args: Readonly<Record<string, unknown>>): string[] {
  return argv.map((element, index) => {
    const pieces = parseElement(element, index);
    let out = '';
    pieces.forEach((piece, k) => {
      if (piece.kind === 'text') {
        out += piece.text;
        return;
      }
      if (!Object.prototype.hasOwnProperty.call(args, piece.name))
        throw new ArgvTemplateError(
          `argv[${index}] '${element}' uses unknown placeholder {${piece.name}}: the call has no argument '${piece.name}'.`,
        );
      const text = valueText(piece.name, args[piece.name]);
      const before = k > 0 ? pieces[k - 1] : undefined;
      const afterEquals = before?.kind === 'text' && before.text.endsWith('=');
      if (text.startsWith('-') && !afterEquals && !NEGATIVE_NUMBER.test(text))
        throw new ArgvTemplateError(
          `Argument '${piece.name}' starts with '-' ('${text.length > 40 ? `${text.slice(0, 40)}…` : text}'), which the program could read as an option; ` +
            `such values are accepted only as --flag={${piece.name}} or as a plain negative number.`,
        );
      out += text;
    });
    return out;
  });
}
