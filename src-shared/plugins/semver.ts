/**
 * Semantic versions (semver.org 2.0.0) and a small subset of npm's ranges, enough for a
 * plugin's `version` and `depends_on` — no dependency for a hundred lines. Ranges: `*`,
 * exact (`1.2.3`, `=1.2.3`), partial (`1`, `1.2`, `1.x`), `^`, `~`, `>=`, `>`, `<=`, `<`,
 * comparators separated by spaces (all must hold) and alternatives separated by `||`.
 * Prerelease versions compare as semver says; npm's extra rule that hides them from ranges
 * naming no prerelease is left out (plugins pin exact versions when they mean one).
 */

/** The official regular expression of semver.org. */
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated identifiers after `-`; empty for a release. Build metadata is ignored. */
  prerelease: string[];
}

export function parseVersion(text: string): SemVer | null {
  const m = SEMVER.exec(text);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease: m[4] ? m[4].split('.') : [] };
}

/** Negative when a < b, 0 when equal in precedence, positive when a > b. */
export function compareSemVer(a: SemVer, b: SemVer): number {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (core !== 0) return Math.sign(core);
  // A release outranks its prereleases.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return Math.sign(b.prerelease.length - a.prerelease.length);
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return Math.sign(Number(x) - Number(y));
    if (xn !== yn) return xn ? -1 : 1; // numeric identifiers rank below alphanumeric ones
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Compares two version strings; a string that is not semver sorts below every version. */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) return x ? 1 : y ? -1 : 0;
  return compareSemVer(x, y);
}

type Op = '>=' | '>' | '<=' | '<' | '=';
interface Bound {
  op: Op;
  v: SemVer;
}
/** Alternatives (`||`), each a list of bounds that must all hold. */
export type VersionRange = Bound[][];

const COMPARATOR = /^(\^|~|>=|<=|>|<|=)?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export function parseRange(text: string): VersionRange | null {
  const alternatives = text.split('||').map((part) => part.trim());
  const out: VersionRange = [];
  for (const alt of alternatives) {
    if (alt === '') return null;
    const bounds: Bound[] = [];
    for (const comparator of alt.split(/\s+/)) {
      const b = comparatorBounds(comparator);
      if (!b) return null;
      bounds.push(...b);
    }
    out.push(bounds);
  }
  return out;
}

export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  const r = parseRange(range);
  if (!v || !r) return false;
  return r.some((bounds) => bounds.every((b) => holds(compareSemVer(v, b.v), b.op)));
}

function holds(c: number, op: Op): boolean {
  return op === '>=' ? c >= 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : op === '<' ? c < 0 : c === 0;
}

function comparatorBounds(text: string): Bound[] | null {
  const m = COMPARATOR.exec(text);
  if (!m) return null;
  const op = m[1] ?? '';
  const parts = [m[2], m[3], m[4]].map((p) => (p === undefined || /^[xX*]$/.test(p) ? null : Number(p)));
  // `1.x.3` is not a version: once a part is a wildcard, the rest must be too.
  const given = parts.findIndex((p) => p === null);
  const n = given < 0 ? 3 : given;
  if (parts.slice(n).some((p) => p !== null)) return null;
  const prerelease = m[5] ? m[5].split('.') : [];
  if (prerelease.length > 0 && n < 3) return null;
  const [major = 0, minor = 0, patch = 0] = parts.map((p) => p ?? 0);
  const low: SemVer = { major, minor, patch, prerelease };
  const ver = (a: number, b: number, c: number): SemVer => ({ major: a, minor: b, patch: c, prerelease: [] });
  // The first version past the partial: `1` → 2.0.0, `1.2` → 1.3.0, `1.2.3` → 1.2.4.
  const next = n === 0 ? null : n === 1 ? ver(major + 1, 0, 0) : n === 2 ? ver(major, minor + 1, 0) : ver(major, minor, patch + 1);
  const range = (upper: SemVer | null): Bound[] =>
    upper
      ? [
          { op: '>=', v: low },
          { op: '<', v: upper },
        ]
      : [];
  switch (op) {
    case '':
    case '=':
      return n === 3 ? [{ op: '=', v: low }] : range(next);
    case '^': {
      // Up to the next change of the first non-zero part given.
      if (n === 0) return [];
      const upper = major > 0 || n === 1 ? ver(major + 1, 0, 0) : minor > 0 || n === 2 ? ver(0, minor + 1, 0) : ver(0, 0, patch + 1);
      return range(upper);
    }
    case '~':
      return n === 0 ? [] : range(n === 1 ? ver(major + 1, 0, 0) : ver(major, minor + 1, 0));
    case '>=':
      return n === 0 ? [] : [{ op: '>=', v: low }];
    case '<':
      return n === 0 ? [{ op: '<', v: ver(0, 0, 0) }] : [{ op: '<', v: low }];
    case '>':
      return n === 0 ? [{ op: '<', v: ver(0, 0, 0) }] : next && n < 3 ? [{ op: '>=', v: next }] : [{ op: '>', v: low }];
    case '<=':
      return n === 0 ? [] : next && n < 3 ? [{ op: '<', v: next }] : [{ op: '<=', v: low }];
    default:
      return null;
  }
}
