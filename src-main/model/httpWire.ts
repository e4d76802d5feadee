import { originOf } from '../net/ssrfGuard.js';
import { HttpModelError, ModelError } from './modelClient.js';
import { retryAfterMsOf, stoppedError } from './retryPolicy.js';
import { httpErrorMessage } from './wireErrors.js';

/**
 * The HTTP side both adapters share: POST, errors as ModelErrors that say what happened,
 * SSE read with eventsource-parser, and Stop honoured at every await.
 *
 * Redirects are followed here, not by fetch: fetch would carry the key headers
 * (`x-api-key`, `Authorization`) and the conversation to whatever origin a 3xx names. Only
 * redirects within the origin the person configured are followed, at most
 * MAX_MODEL_REDIRECTS; any other is a ModelError that says where it pointed. The configured
 * origin itself may be private (a local Ollama): the SSRF guard's address rules are not
 * applied to it, only its origin comparison.
 */

export const MAX_MODEL_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
  secret: string | null = null,
): Promise<Response> {
  if (signal.aborted) throw stoppedError();
  const response = await fetchSameOrigin(
    url,
    { method: 'POST', headers, body: JSON.stringify(body) },
    signal,
    secret,
    (error) => new ModelError(`The model endpoint could not be reached at ${url} (${describeCause(error)}).`),
  );
  if (!response.ok) throw await httpError(response, signal, secret);
  return response;
}

export async function getJson(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  secret: string | null = null,
): Promise<unknown> {
  const response = await fetchSameOrigin(
    url,
    { method: 'GET', headers },
    signal,
    secret,
    (error) => new ModelError(`${url} could not be reached (${describeCause(error)}).`),
  );
  if (!response.ok) throw await httpError(response, signal, secret);
  const text = await readText(response, signal);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ModelError(`${url} did not answer with JSON.`);
  }
}

interface WireRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * fetch with `redirect: 'manual'`: a redirect within the configured origin is followed (the
 * same headers, so the key, go with it), at most MAX_MODEL_REDIRECTS times; a redirect to
 * another origin is refused before anything is sent there. The answer that is not a
 * redirect comes back as is (its body unread, so streams stay streams).
 */
export async function fetchSameOrigin(
  url: string,
  request: WireRequest,
  signal: AbortSignal,
  secret: string | null,
  unreachable: (error: unknown) => ModelError,
): Promise<Response> {
  let current: URL;
  try {
    current = new URL(url);
  } catch (error) {
    throw unreachable(error);
  }
  const origin = originOf(current);
  let { method, body } = request;
  let headers = request.headers;
  for (let redirects = 0; ; redirects++) {
    if (signal.aborted) throw stoppedError();
    let response: Response;
    try {
      response = await fetch(current, { method, headers, body, signal, redirect: 'manual' });
    } catch (error) {
      if (signal.aborted) throw stoppedError();
      throw unreachable(error);
    }
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new ModelError(
        redact(`The model endpoint at ${url} redirected to an address that is not a URL (${location.slice(0, 200)}).`, secret),
      );
    }
    if (originOf(next) !== origin) throw crossOriginRedirect(next, secret);
    if (redirects >= MAX_MODEL_REDIRECTS) {
      throw new ModelError(`The model endpoint at ${url} redirected more than ${MAX_MODEL_REDIRECTS} times. Check the address.`);
    }
    // What fetch does: 303 (and 301/302 after a POST) continue as a GET without the body.
    if (response.status === 303 ? method !== 'HEAD' : (response.status === 301 || response.status === 302) && method === 'POST') {
      method = 'GET';
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
    }
    current = next;
  }
}

/** The address to suggest: the target's base (`…/v1`), without query, fragment or credentials. */
function crossOriginRedirect(target: URL, secret: string | null): ModelError {
  const shown = /^https?:$/.test(target.protocol) ? target.origin : `${target.protocol}//${target.host}`;
  const base = `${shown}${target.pathname.replace(/\/(?:chat\/completions|messages|models)\/?$/i, '').replace(/\/+$/, '')}`;
  const what = secret ? 'Mapwright does not send your key there' : 'Mapwright sends your conversation only to the address you set';
  return new ModelError(
    redact(`The model endpoint redirected to another origin (${shown}); ${what}. Set the address to ${base} if you trust it.`, secret),
  );
}

/**
 * Some servers quote the key they refused ("Incorrect API key provided: sk-…"). The message
 * ends up in the chat and the saved conversation, so the key is cut out of it first.
 */
async function httpError(response: Response, signal: AbortSignal, secret: string | null): Promise<HttpModelError> {
  const text = redact(await readText(response, signal).catch(() => ''), secret);
  return new HttpModelError(
    httpErrorMessage(text, response.status, response.statusText),
    response.status,
    text,
    retryAfterMsOf(response.headers),
  );
}

export function redact(text: string, secret: string | null): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[key]') : text;
}

/** A body read that fails midway is the same outage as a stream cut short. */
export async function readText(response: Response, signal: AbortSignal): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (signal.aborted) throw stoppedError();
    throw brokenStream(error);
  }
}

/**
 * Hands the body's text to `onText` as it arrives (UTF-8 decoded across reads) until it
 * ends or `isDone()` says the end marker came. A stream folder parses the text.
 */
export async function pumpBody(
  response: Response,
  onText: (text: string) => void,
  isDone: () => boolean,
  signal: AbortSignal,
): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        if (signal.aborted) throw stoppedError();
        throw brokenStream(error);
      }
      if (next.done) break;
      onText(decoder.decode(next.value, { stream: true }));
      if (isDone()) return;
    }
    onText(decoder.decode());
  } finally {
    // Stop reading after the end marker or a failure; servers may keep the socket open.
    reader.cancel().catch(() => undefined);
  }
}

/** What `pumpStream` needs of a stream folder (chat or Anthropic). */
export interface StreamFolderInput {
  feed(text: string): void;
  /** The end marker arrived: stop reading. */
  readonly done: boolean;
  /** The turn is complete, even if the connection breaks now. */
  readonly finished: boolean;
}

/**
 * Feeds the SSE body to `folder` until it ends or the end marker came. A connection that
 * breaks after the turn already finished still leaves a whole turn: that break is not an error.
 */
export async function pumpStream(response: Response, folder: StreamFolderInput, signal: AbortSignal): Promise<void> {
  try {
    await pumpBody(
      response,
      (text) => folder.feed(text),
      () => folder.done,
      signal,
    );
  } catch (error) {
    if (!(error instanceof ModelError && !error.aborted && folder.finished)) throw error;
  }
}

/**
 * Reads an answer with `read`. Stop pressed meanwhile is a Stop, whatever `read` made of it —
 * even when it was pressed while the last bytes were being folded.
 */
export async function readUnlessStopped<T>(signal: AbortSignal, read: () => Promise<T>): Promise<T> {
  try {
    const result = await read();
    if (signal.aborted) throw stoppedError();
    return result;
  } catch (error) {
    if (signal.aborted) throw stoppedError();
    throw error;
  }
}

/** Cut streams are usually a crashed or overloaded server: worth a retry, not a refusal. */
export function streamEndedEarly(detail: string): ModelError {
  return new ModelError(`The model's stream ended early (${detail}). Try again; if it keeps happening, check the model server.`);
}

export function brokenStream(error: unknown): ModelError {
  return streamEndedEarly(`the connection closed: ${describeCause(error)}`);
}

/** The useful part of a fetch failure: undici hides the system error code in `cause`. */
export function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause && typeof cause === 'object') {
      const code = (cause as { code?: unknown }).code;
      if (typeof code === 'string') return code;
      const message = (cause as { message?: unknown }).message;
      if (typeof message === 'string' && message !== '') return message;
    }
    return error.message;
  }
  return String(error);
}
