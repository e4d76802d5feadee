import { z } from 'zod';

/**
 * A print layout (issue #15): what the person or the model asks for, and what the renderer
 * sends back. The renderer composes the page (it has the map canvas and the legend); main
 * writes the file (PNG as sent, or a PDF around it), so both sides share these shapes.
 */

export const PAGE_SIZES = ['A4', 'A3', 'Letter'] as const;
export const PageSize = z.enum(PAGE_SIZES);
export type PageSize = z.infer<typeof PageSize>;
export const Orientation = z.enum(['landscape', 'portrait']);
export type Orientation = z.infer<typeof Orientation>;

export const MAX_TITLE_CHARS = 120;

export const PrintSpec = z.object({
  title: z.string().max(MAX_TITLE_CHARS),
  pageSize: PageSize,
  orientation: Orientation,
});
export type PrintSpec = z.infer<typeof PrintSpec>;

/** Portrait sizes in millimetres (ISO 216; US Letter is 8.5 × 11 in). */
const PORTRAIT_MM: Record<PageSize, readonly [number, number]> = {
  A4: [210, 297],
  A3: [297, 420],
  Letter: [215.9, 279.4],
};

export const MM_PER_INCH = 25.4;
export const POINTS_PER_INCH = 72;

/** The page in millimetres, width first, turned for the orientation. */
export function pageMillimetres(size: PageSize, orientation: Orientation): { width: number; height: number } {
  const [short, long] = PORTRAIT_MM[size];
  return orientation === 'portrait' ? { width: short, height: long } : { width: long, height: short };
}

/** The page in PDF points (1/72 in). */
export function pagePoints(size: PageSize, orientation: Orientation): { width: number; height: number } {
  const mm = pageMillimetres(size, orientation);
  const k = POINTS_PER_INCH / MM_PER_INCH;
  return { width: mm.width * k, height: mm.height * k };
}

/** The composed page as the renderer sends it: a PNG data URL at `dpi` (lower than asked when it had to fit the transport). */
export const PrintedPage = z.object({
  dataUrl: z.string().startsWith('data:image/png;base64,'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  dpi: z.number().positive(),
});
export type PrintedPage = z.infer<typeof PrintedPage>;

/** What `map.export` returns (to the model, and to the Export dialog, which shows `path`). */
export const MapExportResult = z.object({
  path: z.string(),
  format: z.enum(['pdf', 'png']),
  page_size: PageSize,
  orientation: Orientation,
  width: z.number().int(),
  height: z.number().int(),
  dpi: z.number(),
  pages: z.number().int(),
});
export type MapExportResult = z.infer<typeof MapExportResult>;
