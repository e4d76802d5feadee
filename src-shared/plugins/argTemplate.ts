/**
 * Templates of plugin executors (a command's argv items, an HTTP path, query and body): text
 * with `{param}` placeholders filled from the validated arguments. `{{` and `}}` stand for
 * literal braces, so JSON can still be written; any other brace is an error, because a typo
 * like `{name` would otherwise pass silently as text.
 */

export type TemplatePart = { text: string } | { param: string };

const PLACEHOLDER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A template that does not parse: the message, and what went wrong where (for callers that word it their way). */
export interface TemplateProblem {
  ok: false;
  message: string;
  problem: 'placeholder' | 'brace';
  /** Offset of the offending brace. */
  at: number;
}

export function parseTemplate(template: string): { ok: true; parts: TemplatePart[] } | TemplateProblem {
  const parts: TemplatePart[] = [];
  let text = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    const next = template[i + 1];
    if ((c === '{' && next === '{') || (c === '}' && next === '}')) {
      text += c;
      i++;
    } else if (c === '{') {
      const close = template.indexOf('}', i);
      const name = close < 0 ? '' : template.slice(i + 1, close);
      if (close < 0 || !PLACEHOLDER.test(name)) {
        return {
          ok: false,
          message: `bad placeholder at '${template.slice(i, i + 20)}': write {param} (or {{ and }} for braces)`,
          problem: 'placeholder',
          at: i,
        };
      }
      if (text) parts.push({ text });
      text = '';
      parts.push({ param: name });
      i = close;
    } else if (c === '}') {
      return { ok: false, message: `stray '}' in '${template}': write }} for a brace`, problem: 'brace', at: i };
    } else text += c;
  }
  if (text) parts.push({ text });
  return { ok: true, parts };
}

/** The parameter names a template uses, or the reason it is malformed. */
export function templateParams(template: string): { ok: true; params: string[] } | { ok: false; message: string } {
  const parsed = parseTemplate(template);
  if (!parsed.ok) return parsed;
  return { ok: true, params: parsed.parts.flatMap((p) => ('param' in p ? [p.param] : [])) };
}

/**
 * Fills a checked template. `encode` is applied to each value (encodeURIComponent for a URL;
 * identity for argv, where each item is one argument and no shell ever splits it). A missing
 * optional argument becomes the empty string.
 */
export function fillTemplate(
  parts: readonly TemplatePart[],
  args: Record<string, unknown>,
  encode: (v: string) => string = (v) => v,
): string {
  return parts.map((p) => ('text' in p ? p.text : encode(valueText(args[p.param])))).join('');
}

function valueText(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}
