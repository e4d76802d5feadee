import { randomBytes } from 'node:crypto';

/** How long a listed file stays loadable by its token: long enough to read a folder and pick. */
const TOKEN_TTL_MS = 15 * 60_000;
/** A bound on memory: a person browsing for hours keeps only the newest tokens. */
const MAX_TOKENS = 50_000;

/**
 * Opaque, short-lived tokens for paths main itself chose: files of its own folder listing, the
 * recent-files list, an upload it stored, the native open dialog's pick (issue #15).
 *
 * Why: a path typed in the renderer is unverified GUI input and asks for approval; a path from
 * main's own listing is the person's pick and need not. The renderer cannot claim that trust for
 * text of its choosing: it only ever holds a random token, and main maps the token back to the
 * exact path it issued it for.
 */
export class FileTokens {
  private readonly byToken = new Map<string, { path: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(path: string): string {
    const token = randomBytes(18).toString('base64url');
    this.byToken.set(token, { path, expires: this.now() + TOKEN_TTL_MS });
    // Maps iterate in insertion order: the first keys are the oldest.
    while (this.byToken.size > MAX_TOKENS) this.byToken.delete(this.byToken.keys().next().value as string);
    return token;
  }

  /** The path the token was issued for, or null when unknown or expired. */
  resolve(token: string): string | null {
    const found = this.byToken.get(token);
    if (!found) return null;
    if (found.expires < this.now()) {
      this.byToken.delete(token);
      return null;
    }
    return found.path;
  }
}
