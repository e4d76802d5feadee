import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, type Readable, type TransformCallback } from 'node:stream';

/**
 * The one gate every outgoing request of main passes (the GDAL egress proxy, model
 * endpoints, plugins, web tools): http and https only, to public addresses only unless the
 * person allowed the origin, the connection pinned to the address that was checked (no DNS
 * rebinding between check and connect), redirects followed by hand and each one checked
 * again, keys never carried to another origin, and a cap on size and time.
 *
 * Every refusal is an `EgressRefused` whose message says which rule and which host, in
 * words a person and a model can act on.
 */

export class EgressRefused extends Error {
  readonly code = 'egress_refused' as const;
  constructor(message: string) {
    super(message);
    this.name = 'EgressRefused';
  }
}

/** Not a refusal: the destination passed the rules but could not be reached in time or at all. */
export class EgressFailed extends Error {
  readonly code = 'egress_failed' as const;
  constructor(message: string) {
    super(message);
    this.name = 'EgressFailed';
  }
}

// ---------------------------------------------------------------------------------------
// IP literals

export interface IpLiteral {
  family: 4 | 6;
  /** Dotted decimal for IPv4; RFC 5952 lower-case hex (as the URL parser writes it) for IPv6. */
  address: string;
}

/**
 * Parses any spelling of an IPv4 literal the URL parser or inet_aton accepts — dotted
 * decimal, a plain integer (`2130706433`), octal (`0177.0.0.1`), hex (`0x7f.1`, `0x7f000001`),
 * short forms (`127.1`), a trailing dot — or an IPv6 literal, bracketed or not, with a zone
 * id or not, with an embedded dotted IPv4 (`::ffff:127.0.0.1`). Null when `host` is not an IP
 * literal.
 */
export function parseIpLiteral(host: string): IpLiteral | null {
  const bytes = ipBytes(host);
  if (!bytes) return null;
  return bytes.length === 4 ? { family: 4, address: formatV4(bytes) } : { family: 6, address: formatV6(bytes) };
}

function ipBytes(host: string): Uint8Array | null {
  let text = host.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes(':')) return parseV6(text);
  return parseV4(text);
}

/** The WHATWG URL IPv4 parser (which follows inet_aton): 1 to 4 parts, the last fills the rest. */
function parseV4(text: string): Uint8Array | null {
  if (text === '') return null;
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: bigint[] = [];
  for (const part of parts) {
    const value = parseV4Number(part);
    if (value === null) return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255n)) return null;
  if (last >= 256n ** BigInt(5 - parts.length)) return null;
  let value = last;
  numbers.forEach((n, i) => {
    value += n * 256n ** BigInt(3 - i);
  });
  return Uint8Array.of(Number((value >> 24n) & 255n), Number((value >> 16n) & 255n), Number((value >> 8n) & 255n), Number(value & 255n));
}

function parseV4Number(part: string): bigint | null {
  if (part === '') return null;
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0n : BigInt(`0x${part.slice(2)}`);
  if (/^0[0-7]+$/.test(part)) return BigInt(`0o${part.slice(1)}`);
  if (/^(?:0|[1-9][0-9]*)$/.test(part)) return BigInt(part);
  return null;
}

function parseV6(input: string): Uint8Array | null {
  // A zone id (`fe80::1%eth0`, `%25` when it came from a URL) names an interface, not an address.
  const text = input.replace(/%.*$/s, '').toLowerCase();
  if (text === '' || !/^[0-9a-f:.]+$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === '') return [];
    const pieces = half.split(':');
    const groups: number[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (piece.includes('.')) {
        // Dotted IPv4 only as the last piece, in strict dotted decimal.
        if (i !== pieces.length - 1) return null;
        const v4 = strictDottedV4(piece);
        if (!v4) return null;
        groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else {
        if (!/^[0-9a-f]{1,4}$/.test(piece)) return null;
        groups.push(parseInt(piece, 16));
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  // A dotted IPv4 may only end the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return null;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    if (head.length !== 8) return null;
    groups = head;
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 255;
  });
  return bytes;
}

function strictDottedV4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(?:0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255)) return null;
  return Uint8Array.from(parts.map(Number));
}

function formatV4(b: Uint8Array): string {
  return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
}

/** RFC 5952: lower case, no leading zeros, the longest run (2+) of zero groups as `::`. */
function formatV6(b: Uint8Array): string {
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestLength < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

// ---------------------------------------------------------------------------------------
// Address classes

const V4_RANGES: [prefix: [number, number, number, number], bits: number, what: string][] = [
  [[0, 0, 0, 0], 8, 'an unspecified address (0.0.0.0/8)'],
  [[10, 0, 0, 0], 8, 'a private address (10.0.0.0/8)'],
  [[100, 64, 0, 0], 10, 'a carrier-grade NAT address (100.64.0.0/10)'],
  [[127, 0, 0, 0], 8, 'a loopback address (127.0.0.0/8)'],
  [[169, 254, 0, 0], 16, 'a link-local address (169.254.0.0/16, where cloud metadata services live)'],
  [[172, 16, 0, 0], 12, 'a private address (172.16.0.0/12)'],
  [[192, 0, 0, 0], 24, 'an IETF protocol address (192.0.0.0/24)'],
  [[192, 0, 2, 0], 24, 'a documentation address (192.0.2.0/24)'],
  [[192, 88, 99, 0], 24, 'a 6to4 relay address (192.88.99.0/24)'],
  [[192, 168, 0, 0], 16, 'a private address (192.168.0.0/16)'],
  [[198, 18, 0, 0], 15, 'a benchmarking address (198.18.0.0/15)'],
  [[198, 51, 100, 0], 24, 'a documentation address (198.51.100.0/24)'],
  [[203, 0, 113, 0], 24, 'a documentation address (203.0.113.0/24)'],
  [[224, 0, 0, 0], 4, 'a multicast address (224.0.0.0/4)'],
  [[255, 255, 255, 255], 32, 'the broadcast address (255.255.255.255)'],
  [[240, 0, 0, 0], 4, 'a reserved address (240.0.0.0/4)'],
];

function inPrefix(bytes: Uint8Array, prefix: ArrayLike<number>, bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i / 8]! & mask) !== (prefix[i / 8]! & mask)) return false;
  }
  return true;
}

function classifyV4(b: Uint8Array): string | null {
  for (const [prefix, bits, what] of V4_RANGES) if (inPrefix(b, prefix, bits)) return what;
  return null;
}

const v6 = (text: string): Uint8Array => parseV6(text)!;

const V6_RANGES: [prefix: Uint8Array, bits: number, what: string][] = [
  [v6('64:ff9b:1::'), 48, 'a local-use NAT64 address (64:ff9b:1::/48)'],
  [v6('100::'), 64, 'a discard-only address (100::/64)'],
  [v6('2001:2::'), 48, 'a benchmarking address (2001:2::/48)'],
  [v6('2001:10::'), 28, 'a non-routable ORCHID address (2001:10::/28)'],
  [v6('2001:20::'), 28, 'a non-routable ORCHID address (2001:20::/28)'],
  [v6('2001:db8::'), 32, 'a documentation address (2001:db8::/32)'],
  [v6('3fff::'), 20, 'a documentation address (3fff::/20)'],
  [v6('fc00::'), 7, 'a unique local (private) address (fc00::/7)'],
  [v6('fe80::'), 10, 'a link-local address (fe80::/10)'],
  [v6('fec0::'), 10, 'a site-local address (fec0::/10)'],
  [v6('ff00::'), 8, 'a multicast address (ff00::/8)'],
];

function classifyV6(b: Uint8Array): string | null {
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const embedded = (at: number) => b.slice(at, at + 4);
  const via = (form: string, inner: Uint8Array): string | null => {
    const what = classifyV4(inner);
    return what ? `${what}, written as ${form} (${formatV4(inner)})` : null;
  };
  if (zeros(0, 16)) return 'the unspecified address (::)';
  if (zeros(0, 15) && b[15] === 1) return 'the loopback address (::1)';
  // ::ffff:a.b.c.d reaches a.b.c.d through a dual-stack socket.
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return via('an IPv4-mapped IPv6 address', embedded(12));
  if (zeros(0, 12)) return `a deprecated IPv4-compatible IPv6 address (::/96, ${formatV4(embedded(12))})`;
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return `an IPv4-translated IPv6 address (::ffff:0:0:0/96, ${formatV4(embedded(12))})`;
  // The well-known NAT64 prefix reaches the IPv4 address it embeds: public ones are fine.
  if (inPrefix(b, v6('64:ff9b::'), 96)) return via('a NAT64 address (64:ff9b::/96)', embedded(12));
  if (inPrefix(b, v6('2002::'), 16)) {
    const what = via('a 6to4 address (2002::/16)', embedded(2));
    if (what) return what;
  }
  if (inPrefix(b, v6('2001::'), 32)) {
    const client = embedded(12).map((x) => x ^ 0xff);
    const what = via('a Teredo address (2001::/32)', client);
    if (what) return what;
  }
  for (const [prefix, bits, what] of V6_RANGES) if (inPrefix(b, prefix, bits)) return what;
  // Only 2000::/3 is global unicast; anything else left is reserved.
  if ((b[0]! & 0xe0) !== 0x20) return 'a reserved IPv6 address (outside 2000::/3)';
  return null;
}

/**
 * Why `address` is not a public internet address (e.g. "a loopback address (127.0.0.0/8)"),
 * or null when it is one. Anything that is not an IP literal counts as non-public.
 */
export function nonPublicReason(address: string): string | null {
  const bytes = ipBytes(address);
  if (!bytes) return `not an IP address (${JSON.stringify(address)})`;
  return bytes.length === 4 ? classifyV4(bytes) : classifyV6(bytes);
}

/**
 * Loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local
 * (169.254/16, fe80::/10), multicast, unspecified (0.0.0.0/8, ::), broadcast, reserved
 * (240/4, documentation, benchmarking, anything outside 2000::/3), and the IPv4-mapped,
 * -compatible, -translated, NAT64, 6to4 and Teredo forms of those. Fails closed: a string
 * that is not an IP address is non-public.
 */
export function isNonPublicAddress(address: string): boolean {
  return nonPublicReason(address) !== null;
}

// ---------------------------------------------------------------------------------------
// Destinations

export interface EgressOptions {
  /**
   * Exact origins the person allowed (e.g. a local Ollama); these may resolve to non-public
   * addresses. Compared after `originOf`, so `http://127.0.0.1:11434/` and
   * `http://127.0.0.1:11434` are the same entry, as are `https://x` and `https://x:443`.
   */
  allowedOrigins?: ReadonlySet<string>;
  /** DNS lookup, injectable for tests; default node:dns/promises lookup with {all:true}. */
  lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21' };

/**
 * `scheme://host:port`, lower case, the default port written out (`https://x.org:443`).
 * IPv6 hosts keep their brackets. Throws a TypeError for a string that is not a URL.
 */
export function originOf(url: URL | string): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  const scheme = parsed.protocol.toLowerCase();
  const port = parsed.port || DEFAULT_PORTS[scheme] || '';
  return `${scheme}//${parsed.hostname.toLowerCase()}${port ? `:${port}` : ''}`;
}

function allowedSet(origins: ReadonlySet<string> | undefined): Set<string> {
  const out = new Set<string>();
  for (const entry of origins ?? []) {
    try {
      out.add(originOf(entry.trim()));
    } catch {
      out.add(entry.trim().toLowerCase());
    }
  }
  return out;
}

const defaultLookup = async (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

export interface CheckedDestination {
  url: URL;
  origin: string;
  /** The address to connect to (pin it: never resolve the name again). */
  address: string;
  family: 4 | 6;
  /** Every address the name resolved to, all of which passed. */
  addresses: IpLiteral[];
  /** Whether the origin was in `allowedOrigins` (then non-public addresses were allowed). */
  allowed: boolean;
}

/**
 * http/https only; resolves the name (an IP literal is its own answer) and refuses when any
 * address it resolves to is non-public, unless the origin is allowed. Returns the address to
 * pin the connection to. Throws EgressRefused naming the rule and the host; a name that does
 * not resolve throws EgressFailed.
 */
export async function checkDestination(url: URL | string, opts: EgressOptions = {}): Promise<CheckedDestination> {
  let parsed: URL;
  try {
    parsed = new URL(url.toString());
  } catch {
    throw new EgressRefused(`Refused ${JSON.stringify(shorten(url.toString()))}: it is not a valid URL.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new EgressRefused(`Refused ${parsed.protocol}// address: only http:// and https:// addresses may be fetched.`);
  }
  const origin = originOf(parsed);
  const allowed = allowedSet(opts.allowedOrigins).has(origin);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const refuse = (why: string) =>
    new EgressRefused(
      `Refused ${origin}: ${why}. Mapwright only connects to public internet addresses, unless you allow this origin in Settings.`,
    );

  const bare = host.toLowerCase().replace(/\.$/, '');
  if (!allowed && (bare === 'localhost' || bare.endsWith('.localhost'))) throw refuse(`${host} names this computer (loopback)`);

  let addresses: IpLiteral[];
  const literal = parseIpLiteral(host);
  if (literal) {
    addresses = [literal];
  } else {
    let found: { address: string; family: number }[];
    try {
      found = await (opts.lookup ?? defaultLookup)(host);
    } catch (error) {
      throw new EgressFailed(`${host} could not be resolved (${codeOf(error)}).`);
    }
    addresses = [];
    for (const entry of found) {
      const parsedAddress = parseIpLiteral(entry.address);
      if (!parsedAddress) throw refuse(`${host} resolved to ${JSON.stringify(entry.address)}, which is not an IP address`);
      addresses.push(parsedAddress);
    }
    if (addresses.length === 0) throw new EgressFailed(`${host} could not be resolved (no addresses).`);
  }
  if (!allowed) {
    for (const entry of addresses) {
      const why = nonPublicReason(entry.address);
      if (why) throw refuse(literal ? `${host} is ${why}` : `${host} resolves to ${entry.address}, ${why}`);
    }
  }
  const pinned = addresses[0]!;
  return { url: parsed, origin, address: pinned.address, family: pinned.family, addresses, allowed };
}

// ---------------------------------------------------------------------------------------
// Guarded fetch

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
export async function guardedFetch(url: string | URL, init: GuardedRequestInit = {}, opts: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const response = await guardedFetchStream(url, init, opts);
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return { ...response, body: Buffer.concat(chunks) };
}

/** guardedFetch with the body as a stream; the limits keep running until it ends. */
export async function guardedFetchStream(url: string | URL, init: GuardedRequestInit = {}, opts: GuardedFetchOptions = {}): Promise<GuardedStreamResponse> {
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const strip = new Set((opts.stripOnCrossOrigin ?? DEFAULT_STRIP_ON_CROSS_ORIGIN).map((h) => h.toLowerCase()));
  const allowed = allowedSet(opts.allowedOrigins);

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new EgressFailed(`No complete answer from ${safeOrigin(url)} within ${timeoutMs} ms.`)), timeoutMs);
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
        throw new EgressRefused(`Refused a redirect from ${target.origin} to a ${next.protocol}// address: only http:// and https:// addresses may be fetched.`);
      }
      const nextOrigin = originOf(next);
      if (nextOrigin !== target.origin) {
        const permitted =
          allowed.has(nextOrigin) ||
          opts.allowCrossOrigin === true ||
          (typeof opts.allowCrossOrigin === 'function' && opts.allowCrossOrigin(target.origin, nextOrigin));
        if (!permitted) {
          throw new EgressRefused(`Refused a redirect from ${target.origin} to another origin (${nextOrigin}). Use ${nextOrigin} directly if you trust it.`);
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
  response.once('error', (error) => capped.destroy(signal.aborted ? (signal.reason as Error) : new EgressFailed(`The answer from ${origin} broke off (${codeOf(error)}).`)));
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

function codeOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return String(error);
}

function safeOrigin(url: string | URL): string {
  try {
    return originOf(url);
  } catch {
    return shorten(url.toString());
  }
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
