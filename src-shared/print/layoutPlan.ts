import { MM_PER_INCH, pageMillimetres, type Orientation, type PageSize } from '../domain/printLayout.js';

/**
 * The geometry of a print page (issue #15), pure so it can be tested and shared: the renderer
 * draws into these boxes, main puts the PDF's text layer over the title box. Everything is
 * planned in millimetres (a layout reads the same on every page size) and handed out in
 * pixels at the page's DPI, origin top-left.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutPlan {
  dpi: number;
  /** Pixels per millimetre at `dpi`. */
  scale: number;
  page: { widthMm: number; heightMm: number; widthPx: number; heightPx: number };
  title: Box;
  map: Box;
  legend: Box;
  northArrow: Box;
  scaleBar: Box;
  attribution: Box;
  date: Box;
  /** Font sizes in pixels at `dpi`. */
  fonts: { title: number; heading: number; body: number; small: number };
}

const MARGIN = 10;
const TITLE_HEIGHT = 12;
const FOOTER_HEIGHT = 6;
/** Space between the blocks. */
const GAP = 4;
/** The block holding the north arrow above the scale bar. */
const FURNITURE_HEIGHT = 36;
const FURNITURE_WIDTH = 60;
const NORTH_ARROW = { width: 12, height: 18 };
const SCALE_BAR_HEIGHT = 12;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const POINT_MM = MM_PER_INCH / 72;

type MmBoxes = Omit<LayoutPlan, 'dpi' | 'scale' | 'page' | 'fonts'>;

/** North arrow over scale bar, both at the left of `area` (its bottom edge). */
function furniture(area: Box): Pick<MmBoxes, 'northArrow' | 'scaleBar'> {
  const bottom = area.y + area.height;
  return {
    northArrow: { x: area.x, y: bottom - SCALE_BAR_HEIGHT - GAP - NORTH_ARROW.height, ...NORTH_ARROW },
    scaleBar: { x: area.x, y: bottom - SCALE_BAR_HEIGHT, width: Math.min(area.width, FURNITURE_WIDTH), height: SCALE_BAR_HEIGHT },
  };
}

function millimetreBoxes(width: number, height: number, orientation: Orientation): MmBoxes {
  const inner = width - 2 * MARGIN;
  const title = { x: MARGIN, y: MARGIN, width: inner, height: TITLE_HEIGHT };
  const footerY = height - MARGIN - FOOTER_HEIGHT;
  // The date is short and fixed; the attribution takes the rest of the footer line.
  const attribution = { x: MARGIN, y: footerY, width: inner * 0.75, height: FOOTER_HEIGHT };
  const date = { x: MARGIN + inner * 0.75, y: footerY, width: inner * 0.25, height: FOOTER_HEIGHT };
  const top = MARGIN + TITLE_HEIGHT + GAP;
  const bodyHeight = footerY - GAP - top;
  if (orientation === 'landscape') {
    // A side panel on the right: the legend above, north arrow and scale bar at its foot.
    const panelWidth = clamp(width * 0.22, 50, 75);
    const map = { x: MARGIN, y: top, width: inner - panelWidth - GAP, height: bodyHeight };
    const panel = { x: map.x + map.width + GAP, y: top, width: panelWidth, height: bodyHeight };
    const legend = { ...panel, height: bodyHeight - FURNITURE_HEIGHT - GAP };
    return { title, map, legend, ...furniture(panel), attribution, date };
  }
  // A band under the map: the legend at the left, north arrow and scale bar at the right.
  const bandHeight = clamp(height * 0.2, 45, 70);
  const map = { x: MARGIN, y: top, width: inner, height: bodyHeight - bandHeight - GAP };
  const bandY = map.y + map.height + GAP;
  const legend = { x: MARGIN, y: bandY, width: inner - FURNITURE_WIDTH - GAP, height: bandHeight };
  const side = { x: MARGIN + inner - FURNITURE_WIDTH, y: bandY, width: FURNITURE_WIDTH, height: bandHeight };
  return { title, map, legend, ...furniture(side), attribution, date };
}

const toPx = (box: Box, k: number): Box => ({
  x: Math.round(box.x * k),
  y: Math.round(box.y * k),
  width: Math.round(box.width * k),
  height: Math.round(box.height * k),
});

/** The page's boxes at `dpi` (150 for print output). */
export function planLayout(pageSize: PageSize, orientation: Orientation, dpi: number): LayoutPlan {
  const { width, height } = pageMillimetres(pageSize, orientation);
  const k = dpi / MM_PER_INCH;
  const mm = millimetreBoxes(width, height, orientation);
  const boxes = Object.fromEntries(Object.entries(mm).map(([name, box]) => [name, toPx(box, k)])) as MmBoxes;
  return {
    dpi,
    scale: k,
    page: { widthMm: width, heightMm: height, widthPx: Math.round(width * k), heightPx: Math.round(height * k) },
    ...boxes,
    fonts: { title: 18 * POINT_MM * k, heading: 10 * POINT_MM * k, body: 8.5 * POINT_MM * k, small: 7 * POINT_MM * k },
  };
}
