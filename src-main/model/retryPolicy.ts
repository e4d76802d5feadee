import { ModelError } from './modelClient.js';

/**
 * Outages worth waiting out: 429 and 5xx (529 is Anthropic's "overloaded"), with backoff
 * that honours the server's Retry-After, a bounded number of times. A wait the server asks
 * for beyond `maxDelayMs` is not waited for: the person hears it at once instead.
 */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 20_000 };
export const NO_RETRY: RetryPolicy = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 };

export function isOutageStatus(status: number | null): boolean {
  return status === 429 || status === 408 || (status !== null && status >= 500 && status <= 599);
}

/**
 * How long to wait before retry number `retry` (1-based), or null for "do not retry".
 * A quota that is used up (`insufficient_quota`) will not come back in seconds.
 */
export function retryDelayMs(error: ModelError, retry: number, policy: RetryPolicy, random = Math.random): number | null {
  if (retry > policy.maxRetries || !isOutageStatus(error.status)) return null;
  if (/insufficient_quota|exceeded your current quota/i.test(`${error.message} ${bodyOf(error)}`)) return null;
  const asked = 'retryAfterMs' in error ? (error as { retryAfterMs: number | null }).retryAfterMs : null;
  if (asked !== null) return asked <= policy.maxDelayMs ? asked : null;
  const exponential = policy.baseDelayMs * 2 ** (retry - 1);
  // Up to 25 % jitter, so clients that failed together do not come back together.
  return Math.min(policy.maxDelayMs, Math.round(exponential * (1 + random() * 0.25)));
}

function bodyOf(error: ModelError): string {
  return 'bodyText' in error ? String((error as { bodyText: unknown }).bodyText) : '';
}

/** `retry-after-ms` (OpenAI), else `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMsOf(headers: Headers, now = Date.now()): number | null {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** A pause Stop ends at once. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(stoppedError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(stoppedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function stoppedError(): ModelError {
  return new ModelError('Stopped', null, true);
}
