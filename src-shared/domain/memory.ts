import { z } from 'zod';

/**
 * What the person asked Mapwright to keep between conversations (issue 17): short notes in the
 * app's own database, never in a project file. `user` notes follow the person into every
 * project; `project` notes belong to one project file. The model may add them (the person
 * approves the exact text); only the person edits or deletes them.
 */
export const MemoryScope = z.enum(['user', 'project']);
export type MemoryScope = z.infer<typeof MemoryScope>;

/** Long enough for a preference or a fact about the data; short enough to sit in a prompt. */
export const MAX_MEMORY_TEXT = 500;
/** Both scopes together: beyond this the person is asked to tidy up before more is kept. */
export const MAX_MEMORIES = 200;

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/**
 * A memory's text as stored: one line (every run of whitespace, newlines included, becomes one
 * space, control characters go), so each memory is one line of the prompt excerpt and cannot
 * open a section of its own.
 */
export const MemoryText = z
  .string()
  .transform((s) => s.replace(CONTROL_CHARACTERS, '').replace(/\s+/g, ' ').trim())
  .pipe(z.string().min(1, 'a memory needs text').max(MAX_MEMORY_TEXT, `at most ${MAX_MEMORY_TEXT} characters`));

export const Memory = z.object({
  id: z.string(),
  scope: MemoryScope,
  text: z.string(),
  /** ISO times. */
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Memory = z.infer<typeof Memory>;

/**
 * Text that looks like a credential: a key with a known prefix, a bearer token, a password
 * given with its value, or 32 or more letters and digits without a break. Kept out of memory: it
 * would be sent with every request.
 */
export function looksLikeSecret(text: string): boolean {
  return (
    /\b(?:sk|pk|rk|ghp|gho|ghs|glpat|xox[abpr])[-_][A-Za-z0-9_-]{12,}/.test(text) ||
    /\bAKIA[0-9A-Z]{16}\b/.test(text) ||
    /\bbearer\s+[A-Za-z0-9._~+/-]{16,}/i.test(text) ||
    /(?:\b(?:password|passwd|pwd|secret|api[_ -]?key|token)|密码|口令|密钥)\s*[:=：]\s*\S+/i.test(text) ||
    /\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{32,}\b/.test(text)
  );
}
