import { PDFDocument, StandardFonts } from 'pdf-lib';
import { pagePoints, type PrintSpec } from '../../src-shared/domain/printLayout.js';
import { planLayout } from '../../src-shared/print/layoutPlan.js';

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
}

/**
 * Helvetica (a standard font, nothing embedded) encodes WinAnsi only; other characters of the
 * text layer become spaces. The metadata keeps the full title in Unicode.
 */
function encodable(text: string, supported: ReadonlySet<number>): string {
  return Array.from(text, (ch) => (supported.has(ch.codePointAt(0)!) ? ch : ' ')).join('');
}

export async function buildLayoutPdf({ spec, png, created = new Date() }: LayoutPdfInput): Promise<Uint8Array> {
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
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const text = encodable(title, new Set(font.getCharacterSet()));
    const size = Math.min(18, box.height * 0.8);
    page.drawText(text, { x: box.x, y: height - box.y - box.height * 0.75, size, font, opacity: 0, maxWidth: box.width });
  }
  return doc.save();
}
