import type { z } from 'zod';

/**
 * Turns zod issues into lines a plugin author can act on, each naming its culprit by path:
 * `tools[1].rules.distance: unknown rule 'metres'`. Someone editing YAML never sees zod's
 * words for "undefined" or "unrecognized".
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[], prefix = ''): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) lines.push(`${formatPath([...issue.path, key], prefix)}: unknown key`);
      continue;
    }
    lines.push(`${formatPath(issue.path, prefix)}: ${issue.message}`);
  }
  return [...new Set(lines)];
}

/** `['tools', 1, 'rules', 'distance']` → `tools[1].rules.distance`, after `prefix` when given. */
export function formatPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = String(part);
      out += /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${out ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`;
    }
  }
  return out || '(top level)';
}

/** The parse-wide error map: plain words for a missing field. Schemas' own messages win. */
export const plainErrors: z.core.$ZodErrorMap = (issue) => {
  // A missing enum or union field reports "invalid option"; say what happened instead.
  if (issue.input === undefined && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code ?? '')) return 'is required';
  return undefined;
};
