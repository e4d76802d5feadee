import { httpExecutorSchema } from '../../../src-shared/plugins/pluginExecutor.js';
import { parseTemplate, fillTemplate, type TemplatePart } from '../../../src-shared/plugins/argTemplate.js';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import {
  guardedFetchStream,
  type GuardedFetchOptions,
  type GuardedRequestInit,
  type GuardedStreamResponse,
} from '../../net/guardedFetch.js';
import { allowedSet, EgressFailed, EgressRefused, originOf, type EgressOptions } from '../../net/ssrfGuard.js';

/**
 * The `http` executor of a plugin (issue #12): one request to the URL the plugin declares,
 * its `{param}` placeholders filled from the call's arguments, through the SSRF guard
 * (`net/guardedFetch.ts`: the address checked and pinned, redirects checked again). The
 * person approves the plugin's origin; nothing a value holds can move the request off it:
 * each value is percent-encoded as one path segment or query value, the filled URL's origin
 * is compared with the declared one, and a redirect to another origin is refused. The request
 * carries only the headers set here: no cookies, no keys, nothing ambient.
 */

/** What a plugin declares for one `http` tool (the manifest's executor, `type` aside). */
export interface HttpSpec {
  method: 'GET' | 'POST';
  /** http(s) URL; `{param}` placeholders only in the path and the query. */
  url: string;
  /** POST only: a JSON object whose strings are templates (a string that is exactly `{param}` takes the value as it is). */
  body?: Record<string, unknown>;
}

/** The guarded fetch (guardedFetchStream, or a double with its contract in tests). */
export type GuardedFetch = (url: string | URL, init: GuardedRequestInit, opts: GuardedFetchOptions) => Promise<GuardedStreamResponse>;

/** How one call runs. */
export interface HttpContext {
  signal: AbortSignal;
  /** Total time for the exchange: redirects, headers and body. */
  timeoutMs: number;
  /** Bytes of the answer kept; past them the connection is closed and the result says `truncated`. */
  maxBytes: number;
  /** The origin the person approved for this plugin version; the declared URL must have it. */
  allowedOrigin: string;
  /** Default: guardedFetchStream. */
  fetch?: GuardedFetch;
  /**
   * The app's guard options: `allowedOrigins` is the person's list of origins that may be
   * non-public (MAPWRIGHT_ALLOW_ORIGINS). Only the plugin's own origin is taken from it, so a
   * redirect can never lead to another origin of that list. `lookup` is for tests.
   */
  egress?: EgressOptions;
  /** Redirects followed within the origin; default 3. */
  maxRedirects?: number;
}

export interface HttpResult {
  status: number;
  /** The Content-Type header as sent, or '' when none. */
  contentType: string;
  /** Parsed JSON when the answer is JSON (and complete), else the text. */
  body: unknown;
  /** Whether `body` is parsed JSON (a JSON string would otherwise look like text). */
  json: boolean;
  /** The answer was longer than `maxBytes`: the text stops there (never parsed as JSON). */
  truncated: boolean;
  /** The URL that answered (after same-origin redirects), for the audit. */
  url: string;
  redirects: number;
}

/** A request ready to send: the URL after filling and the checks, and exactly what goes with it. */
export interface HttpRequest {
  url: URL;
  origin: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export const PLUGIN_USER_AGENT = 'Mapwright-plugin';
const ACCEPT = 'application/json, text/plain;q=0.9, */*;q=0.5';
/** The guard's own clock only backs ours up; ours ends the call first, as a `timeout`. */
const GUARD_BACKSTOP_MS = 1000;
const EXCERPT_CHARS = 300;
const ERROR_BODY_BYTES = 8192;

/**
 * The request one call sends, without sending it. Throws ToolFailure: `handler_error` for a
 * declaration the manifest schema refuses (the plugin's fault), `not_allowed` when its origin
 * is not the approved one or a value would change it, `invalid_params` for a value that
 * cannot stand in a URL (a path segment `.` or `..`, a lone surrogate).
 */
export function buildHttpRequest(spec: HttpSpec, args: Readonly<Record<string, unknown>>, allowedOrigin: string): HttpRequest {
  const checked = httpExecutorSchema.safeParse({ type: 'http', ...spec });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ToolFailure('handler_error', `The plugin's http declaration is invalid: ${issue?.message ?? 'unknown problem'}.`);
  }
  const m = /^(https?):\/\/([^/?#]*)([^?]*)(?:\?(.*))?$/s.exec(spec.url);
  if (!m) throw new ToolFailure('handler_error', `The plugin's URL ${JSON.stringify(spec.url)} is not an http:// or https:// URL.`);
  const [, scheme = '', authority = '', pathTemplate = '', queryTemplate] = m;

  const declaredOrigin = originOf(`${scheme}://${authority}/`);
  let approved: string;
  try {
    approved = originOf(allowedOrigin.trim());
  } catch {
    throw new ToolFailure('not_allowed', `No origin is approved for this plugin (${JSON.stringify(allowedOrigin)} is not one).`);
  }
  if (declaredOrigin !== approved) {
    throw new ToolFailure('not_allowed', `The plugin sends to ${declaredOrigin}, but the origin approved for it is ${approved}.`);
  }

  const path = pathTemplate
    .split('/')
    .map((segment) => fillSegment(segment, args))
    .join('/');
  const query = queryTemplate === undefined ? '' : `?${fill(template(queryTemplate), args, encodeValue)}`;
  let url: URL;
  try {
    url = new URL(`${scheme}://${authority}${path}${query}`);
  } catch {
    throw new ToolFailure('invalid_params', 'The arguments do not make a valid URL for this tool.');
  }
  // Encoding per component makes this unreachable; it stays as the rule's last word.
  if (originOf(url) !== declaredOrigin || url.username !== '' || url.password !== '' || url.hash !== '') {
    throw new ToolFailure('not_allowed', `The arguments would send the request away from ${declaredOrigin}; refused.`);
  }

  const headers: Record<string, string> = { Accept: ACCEPT, 'User-Agent': PLUGIN_USER_AGENT };
  if (spec.method === 'GET') return { url, origin: declaredOrigin, method: 'GET', headers };
  if (spec.body === undefined) return { url, origin: declaredOrigin, method: 'POST', headers, body: '' };
  headers['Content-Type'] = 'application/json';
  return { url, origin: declaredOrigin, method: 'POST', headers, body: JSON.stringify(fillJson(spec.body, args)) };
}

/**
 * Runs one call. Refusals throw ToolFailure before anything is sent (see buildHttpRequest);
 * the guard's refusals (a non-public address the person did not allow, a redirect to another
 * origin, too many redirects) are `not_allowed`; an unreachable server `handler_error`; the
 * time limit `timeout`; the signal `cancelled`; an answer outside 2xx `handler_error` with the
 * status and the start of its body.
 */
export async function runHttp(spec: HttpSpec, args: Readonly<Record<string, unknown>>, ctx: HttpContext): Promise<HttpResult> {
  const request = buildHttpRequest(spec, args, ctx.allowedOrigin);
  if (ctx.signal.aborted) throw new ToolFailure('cancelled', 'The request was stopped before it was sent.');

  const run = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      run.abort(new ToolFailure('timeout', `${request.origin} did not answer within ${ctx.timeoutMs} ms.`));
    },
    Math.max(0, ctx.timeoutMs),
  );
  const onAbort = () => run.abort(new ToolFailure('cancelled', `The request to ${request.origin} was stopped.`));
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  const mayBeLocal = allowedSet(ctx.egress?.allowedOrigins).has(request.origin);
  const opts: GuardedFetchOptions = {
    // Only the plugin's own origin, and only if the person listed it: a redirect to any other origin is refused.
    allowedOrigins: new Set(mayBeLocal ? [request.origin] : []),
    allowCrossOrigin: false,
    ...(ctx.egress?.lookup ? { lookup: ctx.egress.lookup } : {}),
    maxRedirects: ctx.maxRedirects ?? 3,
    // The cap is applied below, keeping what fits rather than refusing the whole answer.
    maxBytes: Number.MAX_SAFE_INTEGER,
    timeoutMs: Math.max(0, ctx.timeoutMs) + GUARD_BACKSTOP_MS,
    signal: run.signal,
  };
  const init: GuardedRequestInit = {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  };

  try {
    const response = await (ctx.fetch ?? guardedFetchStream)(request.url, init, opts);
    if (response.origin !== request.origin) {
      response.body.destroy();
      throw new ToolFailure('not_allowed', `The answer came from ${response.origin}, not ${request.origin}; refused.`);
    }
    const ok = response.status >= 200 && response.status < 300;
    const { bytes, truncated } = await readCapped(response, ok ? ctx.maxBytes : Math.min(ctx.maxBytes, ERROR_BODY_BYTES));
    const contentType = response.headers.get('content-type') ?? '';
    const text = decode(bytes, contentType, truncated);
    if (!ok) throw statusFailure(request.origin, response, text);
    const parsed = !truncated && isJsonType(contentType) ? parseJson(text) : undefined;
    return {
      status: response.status,
      contentType,
      body: parsed ? parsed.value : text,
      json: parsed !== undefined,
      truncated,
      url: response.url,
      redirects: response.redirects,
    };
  } catch (err) {
    if (ctx.signal.aborted) throw new ToolFailure('cancelled', `The request to ${request.origin} was stopped.`);
    if (timedOut) throw new ToolFailure('timeout', `${request.origin} did not answer within ${ctx.timeoutMs} ms.`);
    if (err instanceof ToolFailure) throw err;
    if (err instanceof EgressRefused) throw new ToolFailure('not_allowed', err.message);
    if (err instanceof EgressFailed) throw new ToolFailure('handler_error', err.message);
    throw new ToolFailure('handler_error', `The request to ${request.origin} failed: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** One path segment: values encoded whole (a `/` in a value is `%2F`), and never a dot segment. */
function fillSegment(segment: string, args: Readonly<Record<string, unknown>>): string {
  const parts = template(segment);
  const filled = fill(parts, args, encodeValue);
  if (parts.some((p) => 'param' in p) && /^(\.|%2e){1,2}$/i.test(filled)) {
    throw new ToolFailure('invalid_params', `A path segment of this tool's URL cannot be '${filled}' (it would climb the path).`);
  }
  return filled;
}

function template(text: string): TemplatePart[] {
  const parsed = parseTemplate(text);
  if (!parsed.ok) throw new ToolFailure('handler_error', `The plugin's URL template is invalid: ${parsed.message}`);
  return parsed.parts;
}

function fill(parts: readonly TemplatePart[], args: Readonly<Record<string, unknown>>, encode: (v: string) => string): string {
  try {
    return fillTemplate(parts, args, encode);
  } catch (err) {
    if (err instanceof URIError)
      throw new ToolFailure('invalid_params', 'An argument holds text that cannot be sent in a URL (a lone surrogate).');
    throw err;
  }
}

function encodeValue(value: string): string {
  return encodeURIComponent(value);
}

/**
 * The body template filled: strings are templates filled as text; a string that is exactly
 * `{param}` takes the value as it is (number, object…), and drops out of its object when the
 * argument is missing (null in an array). Object keys are literal.
 */
function fillJson(value: unknown, args: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    const parts = template(value);
    const only = parts.length === 1 ? parts[0] : undefined;
    if (only && 'param' in only) return args[only.param];
    return fillTemplate(parts, args);
  }
  if (Array.isArray(value)) return value.map((v) => fillJson(v, args) ?? null);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const filled = fillJson(v, args);
      if (filled !== undefined) out[key] = filled;
    }
    return out;
  }
  return value;
}

/** Up to `maxBytes` of the body; one byte more says it was cut, and the connection is closed there. */
async function readCapped(response: GuardedStreamResponse, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  for await (const chunk of response.body) {
    const data = chunk as Buffer;
    if (total + data.length > maxBytes) {
      chunks.push(data.subarray(0, maxBytes - total));
      total = maxBytes;
      truncated = true;
      break; // ends the stream, and with it the connection
    }
    chunks.push(data);
    total += data.length;
  }
  if (truncated) response.body.destroy();
  return { bytes: Buffer.concat(chunks, total), truncated };
}

/** Text in the charset the answer names (UTF-8 otherwise); a cut answer loses its last, incomplete character. */
function decode(bytes: Buffer, contentType: string, truncated: boolean): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes, { stream: truncated });
}

function isJsonType(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type === 'text/json' || type.endsWith('+json');
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** A 429 or 503 asks to come back later; other statuses are not worth repeating as they are. */
function statusFailure(origin: string, response: GuardedStreamResponse, text: string): ToolFailure {
  const excerpt = text.replace(/\s+/g, ' ').trim();
  const shown = excerpt.length > EXCERPT_CHARS ? `${excerpt.slice(0, EXCERPT_CHARS)}…` : excerpt;
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const retryAfter = response.headers.get('retry-after');
  const retryable = response.status === 429 || response.status === 503;
  return new ToolFailure(
    'handler_error',
    `${origin} answered ${status}${shown ? `: ${shown}` : ''}`,
    retryable,
    retryable && retryAfter ? `The server asks to wait ${retryAfter} before trying again.` : undefined,
  );
}
