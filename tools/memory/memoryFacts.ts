import { looksLikeSecret, MemoryText, type Memory } from '../../src-shared/domain/memory.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/** A memory as the model reads it: the day it was last changed is enough. */
export function memoryFacts(m: Memory) {
  return { id: m.id, scope: m.scope, text: m.text, updated: m.updatedAt.slice(0, 10) };
}

/**
 * The text that will be kept, as the dialog shows it: one line, trimmed, 1–500 characters, and
 * never something that looks like a password or a key (it would be sent with every request).
 */
export function keptText(raw: string): string {
  const parsed = MemoryText.safeParse(raw);
  if (!parsed.success) throw new ToolFailure('invalid_params', `text: ${parsed.error.issues[0]!.message}.`, false);
  if (looksLikeSecret(parsed.data))
    throw new ToolFailure(
      'not_allowed',
      'text looks like a password, token or key: secrets are never remembered.',
      false,
      'Leave the secret out; keys belong in Settings.',
    );
  return parsed.data;
}

/** A memory quoted for a one-line summary. */
export const quotedMemory = (text: string) => `“${text}”`;
