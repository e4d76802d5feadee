import { createHash } from 'node:crypto';

/**
 * Validators for data responses. ETags are weak (`W/"…"`): the web host may send the same
 * resource gzip- or brotli-encoded, which a strong ETag would have to tell apart.
 */
export function weakETag(...parts: readonly string[]): string {
  return `W/"${createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 27)}"`;
}

/** Whether an `If-None-Match` header matches `etag` (weak comparison, lists and `*` included). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  const want = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === want);
}

/**
 * Tiles: the browser may keep them but must revalidate before each reuse. The tile URL
 * carries the style's hash, not the source's identity, so a file rewritten in place keeps
 * its URLs: a max-age (let alone `immutable`) could show stale pixels. The ETag covers the
 * source's path, size and mtime and the style, so revalidation is a 304 with no rendering.
 */
export const REVALIDATE = 'private, no-cache';
