import { isRecord } from './chatTurnAccumulator.js';

/**
 * Reading the error a server sent, in the envelopes seen in the wild: OpenAI's
 * `{"error":{"message"}}`, Ollama native `{"error":"…"}`, bare `{"message"}` and plain text.
 */

export interface WireError {
  message: string;
  /** A numeric code the server attached (OpenRouter puts the HTTP-like status here). */
  code: number | null;
}

/** The error carried by a parsed JSON body or stream chunk, or null when it carries none. */
export function wireErrorOf(value: unknown): WireError | null {
  if (!isRecord(value)) return null;
  const error = value.error;
  if (typeof error === 'string' && error !== '') return { message: error, code: null };
  if (isRecord(error)) {
    const message = typeof error.message === 'string' && error.message !== '' ? error.message : JSON.stringify(error);
    const code = typeof error.code === 'number' ? error.code : typeof error.status === 'number' ? error.status : null;
    return { message, code };
  }
  return null;
}

/** What to tell the person about a non-2xx answer, from its body text. */
export function httpErrorMessage(bodyText: string, status: number, statusText: string): string {
  const fallback = statusText !== '' ? `${status} ${statusText}` : `HTTP ${status}`;
  const trimmed = bodyText.trim();
  if (trimmed === '') return fallback;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const wire = wireErrorOf(parsed);
    if (wire) return wire.message;
    if (isRecord(parsed) && typeof parsed.message === 'string' && parsed.message !== '') return parsed.message;
    return fallback;
  } catch {
    // Plain text (a proxy's error page, a bare message): short ones are worth showing.
    return trimmed.length <= 300 && !trimmed.startsWith('<') ? trimmed : fallback;
  }
}
