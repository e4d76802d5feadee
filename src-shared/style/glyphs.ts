/**
 * The label font. Its SDF glyphs are generated at build time (scripts/build-glyphs.ts) from
 * DejaVu Sans in Debian's fonts-dejavu-core and shipped in assets/glyphs/ (see SOURCES.md
 * there), so labels render offline. MapLibre asks for `glyphs/<fontstack>/<range>.pbf`.
 */
export const LABEL_FONTSTACK = 'DejaVu Sans Book';

/** Where MapLibre fetches glyph ranges, relative to the assets route; tokens are MapLibre's. */
export const GLYPHS_ASSET_PATH = 'glyphs/{fontstack}/{range}.pbf';

/**
 * The 256-codepoint ranges shipped: Latin-1, Latin Extended-A/B, IPA and spacing modifiers,
 * combining marks and Greek, Cyrillic, and general punctuation (dashes, quotes, …).
 */
export const GLYPH_RANGE_STARTS = [0, 256, 512, 768, 1024, 8192] as const;

export function glyphRangeName(start: number): string {
  return `${start}-${start + 255}`;
}
