import { quoteIdentifier } from '../../../src-shared/sql/quote.js';
import { BadInputError } from '../errors.js';
import type { FieldSpec } from './workspace.js';

/** Field-name chores shared by the SQL algorithms. Every name that reaches SQL goes through `q`. */

export const q = quoteIdentifier;

export const NUMERIC_TYPES = new Set(['integer', 'integer64', 'real']);

/** The real spelling of each requested field (exact match first, then ignoring case), or a readable error. */
export function resolveFields(requested: readonly string[], available: readonly FieldSpec[], param: string, source: string): FieldSpec[] {
  return requested.map((name) => {
    const hit = available.find((f) => f.name === name) ?? available.find((f) => f.name.toLowerCase() === name.trim().toLowerCase());
    if (!hit) {
      const list = available.map((f) => f.name).join(', ') || '(none)';
      throw new BadInputError(`'${param}': no field '${name}' in ${source}; its fields are: ${list}`);
    }
    return hit;
  });
}

export { NameAllocator } from '../../../src-shared/text/nameAllocator.js';

/** `alias."field"` for each field, renamed where the output name differs. */
export function selectList(alias: string, fields: readonly FieldSpec[], outNames?: readonly string[]): string[] {
  return fields.map((f, i) => {
    const out = outNames?.[i] ?? f.name;
    return out === f.name ? `${alias}.${q(f.name)}` : `${alias}.${q(f.name)} AS ${q(out)}`;
  });
}
