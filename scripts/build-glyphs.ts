/**
 * Builds the label glyphs MapLibre needs (signed-distance-field PBFs, the format of
 * `glyphs/{fontstack}/{range}.pbf`) from DejaVu Sans in Debian's fonts-dejavu-core, so labels
 * render offline. Run: `npx tsx scripts/build-glyphs.ts` (writes assets/glyphs/<fontstack>/).
 *
 * The SDFs are drawn by @mapbox/tiny-sdf — the generator MapLibre itself uses for local
 * glyphs (it ships with maplibre-gl) — in headless Chromium, since it needs a canvas. The font
 * is loaded into the page as a FontFace from the .ttf file, and only code points the font
 * covers (fontconfig's charset) are drawn, so no fallback font leaks in. The PBF is encoded
 * here (the glyphs.proto of mapbox/glyph-pbf-composite: fontstack name, range, glyphs).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { GLYPH_RANGE_STARTS, LABEL_FONTSTACK, glyphRangeName } from '../src-shared/style/glyphs.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FONT_FILE = process.env.MAPWRIGHT_GLYPH_FONT ?? '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const LICENCE_FILE = '/usr/share/doc/fonts-dejavu-core/copyright';
const OUT_DIR = join(ROOT, 'assets', 'glyphs');

/** The PBF glyph convention: 24 px em, a 3 px border around each bitmap, 8 px of distance. */
const FONT_SIZE = 24;
const BUFFER = 3;
const RADIUS = 8;
const CUTOFF = 0.25;
/**
 * tiny-sdf measures `top` from the baseline; PBF glyphs measure it from an origin above the
 * em box. MapLibre converts its own tiny-sdf glyphs with this offset (glyph_manager.ts), so
 * ours sit where MapLibre would put them.
 */
const TOP_ADJUSTMENT = 27.5;

interface DrawnGlyph {
  id: number;
  data: number[];
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/** Code points the font has, from fontconfig (`20-7e a0-2e9 …`). */
function fontCoverage(file: string): Set<number> {
  const text = execFileSync('fc-query', ['--format', '%{charset}', file], { encoding: 'utf8' });
  const covered = new Set<number>();
  for (const part of text.trim().split(/\s+/)) {
    const [a, b] = part.split('-').map((h) => Number.parseInt(h, 16));
    if (a === undefined || Number.isNaN(a)) continue;
    for (let cp = a; cp <= (b ?? a); cp++) covered.add(cp);
  }
  return covered;
}

// --- protobuf encoding (varints, zigzag, length-delimited fields) ---
function varint(out: number[], value: number): void {
  let v = value >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}
const zigzag = (n: number) => (n << 1) ^ (n >> 31);
function key(out: number[], field: number, wire: 0 | 2): void {
  varint(out, (field << 3) | wire);
}
function bytesField(out: number[], field: number, bytes: ArrayLike<number>): void {
  key(out, field, 2);
  varint(out, bytes.length);
  for (let i = 0; i < bytes.length; i++) out.push(bytes[i]!);
}
function uintField(out: number[], field: number, v: number): void {
  key(out, field, 0);
  varint(out, v);
}

function encodeGlyph(g: DrawnGlyph): number[] {
  const out: number[] = [];
  uintField(out, 1, g.id);
  if (g.width > 0 && g.height > 0) bytesField(out, 2, g.data);
  uintField(out, 3, g.width);
  uintField(out, 4, g.height);
  uintField(out, 5, zigzag(g.left));
  uintField(out, 6, zigzag(g.top));
  uintField(out, 7, g.advance);
  return out;
}

function encodeRange(fontstack: string, range: string, glyphs: DrawnGlyph[]): Buffer {
  const stack: number[] = [];
  bytesField(stack, 1, Buffer.from(fontstack, 'utf8'));
  bytesField(stack, 2, Buffer.from(range, 'utf8'));
  for (const g of glyphs) bytesField(stack, 3, encodeGlyph(g));
  const out: number[] = [];
  bytesField(out, 1, stack);
  return Buffer.from(out);
}

async function main(): Promise<void> {
  const covered = fontCoverage(FONT_FILE);
  const fontBase64 = readFileSync(FONT_FILE).toString('base64');
  const tinySdfPath = fileURLToPath(import.meta.resolve('@mapbox/tiny-sdf'));
  // An ES module as a classic script: the class becomes a global for the page.
  const tinySdf = readFileSync(tinySdfPath, 'utf8').replace(/export default class TinySDF/, 'window.TinySDF = class TinySDF');

  const browser = await chromium.launch({
    executablePath: process.env.MAPWRIGHT_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: tinySdf });
    const check = await page.evaluate(async (font) => {
      const face = new FontFace('MapwrightGlyphFont', `url(data:font/ttf;base64,${font})`);
      await face.load();
      document.fonts.add(face);
      // tiny-sdf draws on an OffscreenCanvas where there is one: check the same kind of canvas.
      const canvas = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(64, 64) : document.createElement('canvas');
      const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
      ctx.font = '24px MapwrightGlyphFont, monospace';
      const ours = ctx.measureText('iiiiWWWW').width;
      ctx.font = '24px monospace';
      return { ours, mono: ctx.measureText('iiiiWWWW').width };
    }, fontBase64);
    // A monospace fallback would measure the same: the font really is in use.
    if (Math.abs(check.ours - check.mono) < 1) throw new Error(`the font did not load in the page (${JSON.stringify(check)})`);

    const dir = join(OUT_DIR, LABEL_FONTSTACK);
    mkdirSync(dir, { recursive: true });
    for (const start of GLYPH_RANGE_STARTS) {
      const ids: number[] = [];
      for (let cp = start; cp < start + 256; cp++) if (covered.has(cp)) ids.push(cp);
      const drawn = await page.evaluate(
        ({ ids, size, buffer, radius, cutoff }) => {
          const Sdf = (
            window as unknown as { TinySDF: new (o: object) => { draw(c: string): Record<string, number> & { data: Uint8ClampedArray } } }
          ).TinySDF;
          const sdf = new Sdf({ fontSize: size, buffer, radius, cutoff, fontFamily: 'MapwrightGlyphFont' });
          return ids.map((id) => {
            const g = sdf.draw(String.fromCodePoint(id));
            return {
              id,
              data: Array.from(g.data),
              glyphWidth: g.glyphWidth!,
              glyphHeight: g.glyphHeight!,
              glyphLeft: g.glyphLeft!,
              glyphTop: g.glyphTop!,
              glyphAdvance: g.glyphAdvance!,
            };
          });
        },
        { ids, size: FONT_SIZE, buffer: BUFFER, radius: RADIUS, cutoff: CUTOFF },
      );
      const glyphs: DrawnGlyph[] = drawn.map((g) => ({
        id: g.id,
        data: g.data,
        width: g.glyphWidth,
        height: g.glyphHeight,
        left: g.glyphLeft,
        top: Math.round(g.glyphTop - TOP_ADJUSTMENT),
        advance: Math.round(g.glyphAdvance),
      }));
      const range = glyphRangeName(start);
      const file = join(dir, `${range}.pbf`);
      writeFileSync(file, encodeRange(LABEL_FONTSTACK, range, glyphs));
      console.log(`glyphs: ${file} (${glyphs.length} glyphs)`);
    }
    copyFileSync(LICENCE_FILE, join(OUT_DIR, 'LICENSE-DejaVu.txt'));
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
