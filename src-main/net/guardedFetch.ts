import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import {
  allowedSet,
  checkDestination,
  codeOf,
  EgressFailed,
  EgressRefused,
  originOf,
  shorten,
  type CheckedDestination,
  type EgressOptions,
} from './ssrfGuard.js';

/**
 * fetch for main's own requests to addresses it did not choose (web tools, plugins): every
 * hop through `checkDestination`, the connection pinned to the checked address, redirects
 * followed by hand (another origin only when allowed, key headers never sent there), body
 * size and total time capped.
 */

export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string> | readonly (readonly [string, string])[];
  body?: string | Uint8Array;
}

export interface GuardedFetchOptions extends EgressOptions {
  /** Redirects followed (each checked again); one more is refused. Default 3. */
  maxRedirects?: number;
  /** Largest body accepted, in bytes. Default 50 MiB. */
  maxBytes?: number;
  /** Total time for the whole exchange, redirects and body included. Default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Whether a redirect to another origin may be followed. Origins in `allowedOrigins` always
   * may. Default: no.
   */
  allowCrossOrigin?: boolean | ((from: string, to: string) => boolean);
  /** Headers never sent to an origin other than the first one. Default: DEFAULT_STRIP_ON_CROSS_ORIGIN. */
  stripOnCrossOrigin?: readonly string[];
}

export const DEFAULT_STRIP_ON_CROSS_ORIGIN: readonly string[] = ['authorization', 'x-api-key', 'cookie', 'proxy-authorization', 'api-key'];
export const DEFAULT_MAX_REDIRECTS = 3;
export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface GuardedResponseHead {
  status: number;
  statusText: string;
  headers: Headers;
  /** The URL that answered, after redirects. */
  url: string;
  origin: string;
  /** The address the answer came from. */
  address: string;
  redirects: number;
}

export interface GuardedResponse extends GuardedResponseHead {
  body: Buffer;
}

export interface GuardedStreamResponse extends GuardedResponseHead {
  /** The body, capped at `maxBytes` and the time limit (the stream errors with EgressRefused / EgressFailed past them). */
  body: Readable;
}

/** Hop-by-hop or computed here; a caller's value would only confuse the server or the check. */
const DROPPED_REQUEST_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

/**
 * fetch with the guard: the destination checked, the connection pinned to the checked
 * address (TLS still verifies the host name), redirects followed by hand (each checked,
 * another origin only when allowed, the key headers never sent there), body size and total
 * time capped. Reads the whole body.
 */
export async function guardedFetch(
  url: string | URL,
  init: GuardedRequestInit = {},
  opts: GuardedFetchOptions = {},
): Promise<GuardedResponse> {
  const response = await guardedFetchStream(url, init, opts);
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return { ...response, body: Buffer.concat(chunks) };
}

/** guardedFetch with the body as a stream; the limits keep running until it ends. */
export async function guardedFetchStream(
  url: string | URL,
  init: GuardedRequestInit = {},
  opts: GuardedFetchOptions = {},
): Promise<GuardedStreamResponse> {
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const strip = new Set((opts.stripOnCrossOrigin ?? DEFAULT_STRIP_ON_CROSS_ORIGIN).map((h) => h.toLowerCase()));
  const allowed = allowedSet(opts.allowedOrigins);

  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new EgressFailed(`No complete answer from ${safeOrigin(url)} within ${timeoutMs} ms.`)),
    timeoutMs,
  );
  timer.unref?.();
  const onCallerAbort = () => controller.abort(opts.signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
  if (opts.signal?.aborted) onCallerAbort();
  else opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let handedOver = false;
  const cleanup = () => {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  };

  try {
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    const headers = new Map<string, [string, string]>();
    for (const [name, value] of Array.isArray(init.headers) ? init.headers : Object.entries(init.headers ?? {})) {
      if (!DROPPED_REQUEST_HEADERS.has(name.toLowerCase())) headers.set(name.toLowerCase(), [name, value]);
    }

    let target = await raceAbort(checkDestination(url, opts), controller.signal);
    const firstOrigin = target.origin;
    for (let redirects = 0; ; redirects++) {
      const response = await requestOnce(target, method, headers, body, controller.signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(status) || !location) {
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          response.destroy();
          throw tooLarge(target.origin, maxBytes);
        }
        const capped = capBody(response, maxBytes, target.origin, controller.signal);
        capped.once('close', cleanup);
        handedOver = true;
        return {
          status,
          statusText: response.statusMessage ?? '',
          headers: headersOf(response),
          url: target.url.toString(),
          origin: target.origin,
          address: target.address,
          redirects,
          body: capped,
        };
      }
      response.resume();
      if (redirects >= maxRedirects) {
        throw new EgressRefused(`Refused to follow ${target.origin}: it redirected more than ${maxRedirects} times.`);
      }
      let next: URL;
      try {
        next = new URL(location, target.url);
      } catch {
        throw new EgressRefused(`Refused a redirect from ${target.origin}: ${JSON.stringify(shorten(location))} is not a valid URL.`);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new EgressRefused(
          `Refused a redirect from ${target.origin} to a ${next.protocol}// address: only http:// and https:// addresses may be fetched.`,
        );
      }
      const nextOrigin = originOf(next);
      if (nextOrigin !== target.origin) {
        const permitted =
          allowed.has(nextOrigin) ||
          opts.allowCrossOrigin === true ||
          (typeof opts.allowCrossOrigin === 'function' && opts.allowCrossOrigin(target.origin, nextOrigin));
        if (!permitted) {
          throw new EgressRefused(
            `Refused a redirect from ${target.origin} to another origin (${nextOrigin}). Use ${nextOrigin} directly if you trust it.`,
          );
        }
      }
      // Once a header has been kept from another origin it stays dropped (as fetch does).
      if (nextOrigin !== firstOrigin) for (const name of strip) headers.delete(name);
      if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
        method = 'GET';
        body = undefined;
        for (const name of ['content-type', 'content-encoding', 'content-language', 'content-location']) headers.delete(name);
      }
      target = await raceAbort(checkDestination(next, opts), controller.signal);
    }
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    if (!handedOver) cleanup();
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function requestOnce(
  target: CheckedDestination,
  method: string,
  headers: Map<string, [string, string]>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const https = target.url.protocol === 'https:';
  const host = target.url.hostname.replace(/^\[|\]$/g, '');
  const outgoing: OutgoingHttpHeaders = {};
  for (const [name, value] of headers.values()) outgoing[name] = value;
  const payload = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body) : body;
  if (payload !== undefined) outgoing['Content-Length'] = String(payload.byteLength);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const options: RequestOptions = {
    host,
    port: target.url.port || (https ? 443 : 80),
    path: `${target.url.pathname}${target.url.search}`,
    method,
    headers: outgoing,
    // A fresh connection every time: a pooled socket might lead somewhere never checked.
    agent: false,
    lookup: pinned,
    family: target.family,
  };
  return new Promise<IncomingMessage>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const req = (https ? httpsRequest : httpRequest)(options);
    const onAbort = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    signal.addEventListener('abort', onAbort, { once: true });
    req.once('response', (response) => {
      signal.removeEventListener('abort', onAbort);
      resolve(response);
    });
    req.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(signal.aborted ? signal.reason : new EgressFailed(`${target.origin} could not be reached (${codeOf(error)}).`));
    });
    req.end(payload);
  });
}

function capBody(response: IncomingMessage, maxBytes: number, origin: string, signal: AbortSignal): Transform {
  let seen = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(tooLarge(origin, maxBytes));
      else callback(null, chunk);
    },
  });
  const onAbort = () => {
    const reason: unknown = signal.reason;
    capped.destroy(reason instanceof Error ? reason : new Error(String(reason)));
  };
  signal.addEventListener('abort', onAbort, { once: true });
  capped.once('close', () => {
    signal.removeEventListener('abort', onAbort);
    response.destroy();
  });
  response.once('error', (error) =>
    capped.destroy(signal.aborted ? (signal.reason as Error) : new EgressFailed(`The answer from ${origin} broke off (${codeOf(error)}).`)),
  );
  response.once('aborted', () => capped.destroy(new EgressFailed(`The answer from ${origin} broke off.`)));
  response.pipe(capped);
  return capped;
}

function tooLarge(origin: string, maxBytes: number): EgressRefused {
  return new EgressRefused(`Refused the answer from ${origin}: it is larger than ${formatBytes(maxBytes)}.`);
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value Headers will not hold (invalid characters): leave it out.
    }
  }
  return headers;
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

function safeOrigin(url: string | URL): string {
  try {
    return originOf(url);
  } catch {
    return shorten(url.toString());
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
