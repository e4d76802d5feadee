import { lookup as dnsLookup } from 'node:dns/promises';
import { originOfUrl } from '../../src-shared/security/sourceClass.js';
import { nonPublicReason, parseIpLiteral, type IpLiteral } from './ipAddress.js';

/**
 * The one check every outgoing request of main passes (the GDAL egress proxy, and
 * `guardedFetch` for web tools and plugins): http and https only, to public addresses only
 * unless the person allowed the origin, and the address to pin the connection to (no DNS
 * rebinding between check and connect). Model endpoints the person configured are allowed as
 * they are; their requests keep to their origin (model/httpWire.ts).
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

/**
 * `scheme://host:port`, lower case, the default port written out (`https://x.org:443`), the
 * same form the source classification gives. Throws a TypeError for a string that is not a URL.
 */
export function originOf(url: URL | string): string {
  return originOfUrl(typeof url === 'string' ? new URL(url) : url);
}

export function allowedSet(origins: ReadonlySet<string> | undefined): Set<string> {
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

export function codeOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return String(error);
}

export function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
