/**
 * The shipped label glyphs (assets/glyphs) are well-formed glyph PBFs of DejaVu Sans: decoded
 * here with a protobuf reader of our own, their advances checked against the font file's own
 * metrics (its cmap and hmtx tables, read here too), their bitmaps against the SDF layout.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GLYPH_RANGE_STARTS, LABEL_FONTSTACK, glyphRangeName } from './glyphs.js';

const DIR = fileURLToPath(new URL(`../../assets/glyphs/${LABEL_FONTSTACK}/`, import.meta.url));
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

type Fields = Map<number, (number | Uint8Array)[]>;

function readProto(buf: Uint8Array): Fields {
  const out: Fields = new Map();
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = buf[i++]!;
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return v;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const field = key >>> 3;
    const wire = key & 7;
    let value: number | Uint8Array;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const len = varint();
      value = buf.subarray(i, i + len);
      i += len;
    } else throw new Error(`unexpected wire type ${wire}`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const unzigzag = (n: number) => (n >>> 1) ^ -(n & 1);

interface Glyph {
  id: number;
  bitmap: Uint8Array | null;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

function readRange(file: string): { name: string; range: string; glyphs: Glyph[] } {
  const top = readProto(readFileSync(file));
  const stack = readProto(top.get(1)![0] as Uint8Array);
  const text = (f: number) => Buffer.from(stack.get(f)![0] as Uint8Array).toString('utf8');
  const glyphs = (stack.get(3) ?? []).map((g) => {
    const f = readProto(g as Uint8Array);
    const n = (k: number) => (f.get(k)?.[0] as number | undefined) ?? 0;
    return {
      id: n(1),
      bitmap: (f.get(2)?.[0] as Uint8Array | undefined) ?? null,
      width: n(3),
      height: n(4),
      left: unzigzag(n(5)),
      top: unzigzag(n(6)),
      advance: n(7),
    };
  });
  return { name: text(1), range: text(2), glyphs };
}

/** Advance widths from the TrueType file itself: cmap (format 4) → glyph index → hmtx. */
function fontAdvances(file: string): { unitsPerEm: number; advanceOf(cp: number): number | null } {
  const b = readFileSync(file);
  const tables = new Map<string, number>();
  const num = b.readUInt16BE(4);
  for (let t = 0; t < num; t++) tables.set(b.toString('latin1', 12 + t * 16, 16 + t * 16), b.readUInt32BE(12 + t * 16 + 8));
  const head = tables.get('head')!;
  const hhea = tables.get('hhea')!;
  const hmtx = tables.get('hmtx')!;
  const cmap = tables.get('cmap')!;
  const unitsPerEm = b.readUInt16BE(head + 18);
  const metrics = b.readUInt16BE(hhea + 34);
  let sub = -1;
  for (let e = 0; e < b.readUInt16BE(cmap + 2); e++) {
    const rec = cmap + 4 + e * 8;
    if (b.readUInt16BE(rec) === 3 && b.readUInt16BE(rec + 2) === 1) sub = cmap + b.readUInt32BE(rec + 4);
  }
  assert.ok(sub > 0 && b.readUInt16BE(sub) === 4, 'a Windows Unicode BMP cmap (format 4)');
  const segs = b.readUInt16BE(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + segs * 2 + 2;
  const deltas = starts + segs * 2;
  const offsets = deltas + segs * 2;
  const glyphOf = (cp: number): number => {
    for (let s = 0; s < segs; s++) {
      if (cp > b.readUInt16BE(ends + s * 2)) continue;
      const start = b.readUInt16BE(starts + s * 2);
      if (cp < start) return 0;
      const delta = b.readInt16BE(deltas + s * 2);
      const ro = b.readUInt16BE(offsets + s * 2);
      if (ro === 0) return (cp + delta) & 0xffff;
      const g = b.readUInt16BE(offsets + s * 2 + ro + (cp - start) * 2);
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
  };
  return {
    unitsPerEm,
    advanceOf(cp) {
      const g = glyphOf(cp);
      if (g === 0) return null;
      return b.readUInt16BE(hmtx + Math.min(g, metrics - 1) * 4);
    },
  };
}

describe('label glyphs', () => {
  it('every shipped range is a glyph PBF named for its fontstack and range', () => {
    for (const start of GLYPH_RANGE_STARTS) {
      const { name, range, glyphs } = readRange(`${DIR}${glyphRangeName(start)}.pbf`);
      assert.equal(name, LABEL_FONTSTACK);
      assert.equal(range, glyphRangeName(start));
      assert.ok(glyphs.length > 150, `${range}: ${glyphs.length} glyphs`);
      for (const g of glyphs) {
        assert.ok(g.id >= start && g.id <= start + 255, `${g.id} in ${range}`);
        // SDF bitmaps carry a 3 px border on every side.
        if (g.width > 0) assert.equal(g.bitmap?.length, (g.width + 6) * (g.height + 6), `bitmap of U+${g.id.toString(16)}`);
      }
    }
  });

  it('Latin-1 has the letters labels need, including accented ones', () => {
    const ids = new Set(readRange(`${DIR}0-255.pbf`).glyphs.map((g) => g.id));
    for (const ch of "ABCXYZabcxyz0189 ,.'()-ÅÉÎÕÜßàçéíñôöú") assert.ok(ids.has(ch.codePointAt(0)!), `has ${ch}`);
  });

  it('advances are DejaVu Sans’ own at 24 px (from the font file’s hmtx), so the glyphs are that font', (t) => {
    if (!existsSync(FONT)) return t.skip(`${FONT} absent (fonts-dejavu-core)`);
    const font = fontAdvances(FONT);
    let checked = 0;
    for (const start of [0, 256]) {
      for (const g of readRange(`${DIR}${glyphRangeName(start)}.pbf`).glyphs) {
        // Format characters (the soft hyphen) are invisible: browsers measure them as 0, as MapLibre treats them.
        if (/^\p{Cf}$/u.test(String.fromCodePoint(g.id))) continue;
        const units = font.advanceOf(g.id);
        assert.ok(units !== null, `U+${g.id.toString(16)} is in the font`);
        assert.ok(
          Math.abs(g.advance - (units * 24) / font.unitsPerEm) <= 0.5 + 1e-9,
          `U+${g.id.toString(16)}: ${g.advance} vs ${(units * 24) / font.unitsPerEm}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 400);
  });

  it('bitmaps are signed distance fields: inside the stroke above the edge value, outside below', () => {
    const glyphs = readRange(`${DIR}0-255.pbf`).glyphs;
    const l = glyphs.find((g) => g.id === 'l'.codePointAt(0))!;
    const w = l.width + 6;
    const mid = (3 + Math.floor(l.height / 2)) * w;
    const row = Array.from(l.bitmap!.subarray(mid, mid + w));
    // MapLibre's edge is 192 (cutoff 0.25): the stem of an l crosses it twice along a row.
    assert.ok(Math.max(...row) > 192, `the stem is inside: ${row}`);
    assert.ok(row[0]! < 192 && row.at(-1)! < 192, 'the border is outside');
    const space = glyphs.find((g) => g.id === 32)!;
    assert.deepEqual([space.width, space.height, space.bitmap], [0, 0, null]);
    assert.ok(space.advance > 5);
  });
});
