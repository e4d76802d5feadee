import { existsSync, readFileSync } from 'node:fs';

/**
 * A font that can write Chinese (and Japanese, Korean) in the print layout's PDF text layer,
 * where Helvetica cannot (issue 15). MAPWRIGHT_CJK_FONT names a TrueType/OpenType file; else
 * the first of the known locations that exists. Debian's fonts-droid-fallback (Apache-2.0;
 * scripts/setup.sh installs it) is the first: it covers CJK in one TrueType file pdf-lib can
 * subset (the .ttc collections of Noto CJK are not read by it).
 */
export const CJK_FONT_CANDIDATES: readonly string[] = [
  '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
  '/usr/share/fonts/truetype/droid/DroidSansFallback.ttf',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/System/Library/Fonts/Supplemental/Arial Unicode.ttf',
  'C:\\Windows\\Fonts\\simhei.ttf',
];

export function findCjkFont(env: Record<string, string | undefined> = process.env, candidates = CJK_FONT_CANDIDATES): string | null {
  const override = env.MAPWRIGHT_CJK_FONT?.trim();
  if (override) return existsSync(override) ? override : null;
  return candidates.find((path) => existsSync(path)) ?? null;
}

let cached: { path: string; bytes: Uint8Array } | null = null;

/** The font's bytes (read once per path), or null when none is found. */
export function loadCjkFont(env: Record<string, string | undefined> = process.env): { path: string; bytes: Uint8Array } | null {
  const path = findCjkFont(env);
  if (!path) return null;
  if (cached?.path !== path) cached = { path, bytes: new Uint8Array(readFileSync(path)) };
  return cached;
}
