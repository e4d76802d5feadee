import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { pagePoints, type PrintSpec } from '../../src-shared/domain/printLayout.js';
import { planLayout } from '../../src-shared/print/layoutPlan.js';
import { loadCjkFont } from './cjkFont.js';

/**
 * A one-page PDF around a composed print page (issue #15). The renderer draws the whole page
 * as a PNG; this puts it on a page of the chosen size, full-bleed, and lays the title over
 * its drawn title as invisible text, so the PDF can be searched and `pdftotext` reads it. The
 * metadata carries the title, creator and date.
 */

export interface LayoutPdfInput {
  spec: PrintSpec;
  png: Uint8Array;
  created?: Date;
  /** Where the CJK font is looked for (MAPWRIGHT_CJK_FONT); the process environment by default. */
  env?: Record<string, string | undefined>;
}

/**
 * The title's fonts: Helvetica for what it can write; for the rest (Chinese, Japanese, Korean)
 * a CJK font from the system (cjkFont.ts), embedded as a subset of the title's glyphs. Without
 * one, Helvetica alone as before — those characters become spaces in the text layer, and a note
 * says why.
 */
async function titleFonts(doc: PDFDocument, title: string, env: Record<string, string | undefined> | undefined): Promise<PDFFont[]> {
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  const supported = new Set(helvetica.getCharacterSet());
  if (Array.from(title).every((ch) => supported.has(ch.codePointAt(0)!))) return [helvetica];
  const cjk = loadCjkFont(env);
  if (!cjk) {
    console.warn(
      '[print] no CJK font found (install fonts-droid-fallback or set MAPWRIGHT_CJK_FONT): characters of the title outside WinAnsi are left out of the PDF text layer',
    );
    return [helvetica];
  }
  doc.registerFontkit(fontkit);
  return [helvetica, await doc.embedFont(cjk.bytes, { subset: true })];
}

/** The title cut into runs, each in the first font that has all its characters (a space where none has). */
function runsOf(title: string, fonts: readonly PDFFont[]): { text: string; font: PDFFont }[] {
  const sets = fonts.map((f) => new Set(f.getCharacterSet()));
  const runs: { text: string; font: PDFFont }[] = [];
  for (const ch of Array.from(title)) {
    const i = sets.findIndex((set) => set.has(ch.codePointAt(0)!));
    const font = fonts[Math.max(0, i)]!;
    const text = i < 0 ? ' ' : ch;
    const last = runs.at(-1);
    if (last?.font === font) last.text += text;
    else runs.push({ text, font });
  }
  return runs;
}

export async function buildLayoutPdf({ spec, png, created = new Date(), env }: LayoutPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = spec.title.trim();
  doc.setTitle(title || 'Map', { showInWindowTitleBar: true });
  doc.setCreator('Mapwright');
  doc.setProducer('Mapwright (pdf-lib)');
  doc.setCreationDate(created);
  doc.setModificationDate(created);

  const { width, height } = pagePoints(spec.pageSize, spec.orientation);
  const page = doc.addPage([width, height]);
  const image = await doc.embedPng(png);
  page.drawImage(image, { x: 0, y: 0, width, height });

  if (title) {
    // The plan at 72 DPI is in points; PDF's origin is the bottom-left corner.
    const box = planLayout(spec.pageSize, spec.orientation, 72).title;
    const runs = runsOf(title, await titleFonts(doc, title, env));
    // One line across the title box: runs side by side, the size brought down if they would overflow it.
    const width = (size: number) => runs.reduce((sum, r) => sum + r.font.widthOfTextAtSize(r.text, size), 0);
    const base = Math.min(18, box.height * 0.8);
    const size = Math.min(base, (base * box.width) / Math.max(1, width(base)));
    let x = box.x;
    for (const run of runs) {
      page.drawText(run.text, { x, y: height - box.y - box.height * 0.75, size, font: run.font, opacity: 0 });
      x += run.font.widthOfTextAtSize(run.text, size);
    }
  }
  return doc.save();
}
