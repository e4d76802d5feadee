/**
 * IP addresses as the network stack reads them: every spelling of a literal, and whether an
 * address is a public internet address. Pure; used by the SSRF guard (ssrfGuard.ts).
 */

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
  for (let i = 0; i < 8;) {
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
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12))
    return `an IPv4-translated IPv6 address (::ffff:0:0:0/96, ${formatV4(embedded(12))})`;
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
