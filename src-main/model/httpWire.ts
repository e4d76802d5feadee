import { HttpModelError, ModelError } from './modelClient.js';
import { retryAfterMsOf, stoppedError } from './retryPolicy.js';
import { httpErrorMessage } from './wireErrors.js';

/**
 * The HTTP side both adapters share: POST, errors as ModelErrors that say what happened,
 * SSE read with eventsource-parser, and Stop honoured at every await.
 */

export async function postJson(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal, secret: string | null = null): Promise<Response> {
  if (signal.aborted) throw stoppedError();
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
  } catch (error) {
    if (signal.aborted) throw stoppedError();
    throw new ModelError(`The model endpoint could not be reached at ${url} (${describeCause(error)}).`);
  }
  if (!response.ok) throw await httpError(response, signal, secret);
  return response;
}

export async function getJson(url: string, headers: Record<string, string>, signal: AbortSignal, secret: string | null = null): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (error) {
    if (signal.aborted) throw stoppedError();
    throw new ModelError(`${url} could not be reached (${describeCause(error)}).`);
  }
  if (!response.ok) throw await httpError(response, signal, secret);
  const text = await readText(response, signal);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ModelError(`${url} did not answer with JSON.`);
  }
}

/**
 * Some servers quote the key they refused ("Incorrect API key provided: sk-…"). The message
 * ends up in the chat and the saved conversation, so the key is cut out of it first.
 */
async function httpError(response: Response, signal: AbortSignal, secret: string | null): Promise<HttpModelError> {
  const text = redact(await readText(response, signal).catch(() => ''), secret);
  return new HttpModelError(httpErrorMessage(text, response.status, response.statusText), response.status, text, retryAfterMsOf(response.headers));
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
export async function pumpBody(response: Response, onText: (text: string) => void, isDone: () => boolean, signal: AbortSignal): Promise<void> {
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
