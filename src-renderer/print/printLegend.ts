import type { LayerLegend, LegendEntry, LegendSwatch, LegendSymbol } from '../../src-shared/style/legend.js';
import type { Box } from '../../src-shared/print/layoutPlan.js';
import { i18n } from '../i18n/i18n.js';
import { legendNoteText } from '../map/legendNoteText.js';

/**
 * The legend of a print page, drawn on a 2D canvas from the same model the MapLegend
 * component shows (src-shared/style/legend.ts). What does not fit the box is summed up in a
 * last line rather than drawn over the scale bar.
 */

export interface LegendFonts {
  heading: number;
  body: number;
  small: number;
}

const FONT_FAMILY = '"DejaVu Sans", "Helvetica Neue", Arial, sans-serif';
export const font = (px: number, weight = 'normal', style = 'normal') => `${style} ${weight} ${px}px ${FONT_FAMILY}`;

/** `text` cut with an ellipsis to fit `width` at the context's current font. */
export function fitText(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}

class LegendPen {
  y: number;
  constructor(
    readonly ctx: CanvasRenderingContext2D,
    readonly box: Box,
    readonly f: LegendFonts,
  ) {
    this.y = box.y;
  }
  get bottom() {
    return this.box.y + this.box.height;
  }
  /** Room for `height` more pixels, keeping a line free for the "more" note. */
  fits(height: number) {
    return this.y + height <= this.bottom - this.f.small * 1.6;
  }
  text(text: string, px: number, options: { weight?: string; style?: string; colour?: string; x?: number } = {}) {
    const { ctx } = this;
    ctx.font = font(px, options.weight, options.style);
    ctx.fillStyle = options.colour ?? '#222';
    ctx.textBaseline = 'top';
    const x = options.x ?? this.box.x;
    ctx.fillText(fitText(ctx, text, this.box.x + this.box.width - x), x, this.y);
    this.y += px * 1.35;
  }
}

function drawSwatch(ctx: CanvasRenderingContext2D, symbol: LegendSymbol, item: LegendSwatch, x: number, y: number, size: number) {
  ctx.save();
  ctx.fillStyle = item.colour;
  ctx.strokeStyle = item.stroke ?? 'rgba(0,0,0,0.35)';
  ctx.lineWidth = Math.max(1, size / 14);
  if (symbol === 'line') {
    ctx.fillRect(x, y + size / 2 - Math.max(2, size / 6) / 2, size * 1.4, Math.max(2, size / 6));
  } else if (symbol === 'point') {
    const r = item.size ? Math.min(size / 2, Math.max(size / 5, item.size * (size / 18))) : size / 3;
    ctx.beginPath();
    ctx.arc(x + size / 2, y + size / 2, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  } else {
    ctx.fillRect(x, y, size * 1.4, size);
    ctx.strokeRect(x, y, size * 1.4, size);
  }
  ctx.restore();
}

/** Draws one entry; false when it did not fit. */
function drawEntry(pen: LegendPen, entry: LegendEntry): boolean {
  const { ctx, box, f } = pen;
  const size = f.body * 1.25;
  const row = size * 1.35;
  const titleOf = (t: string | null) => t && pen.text(t, f.small, { style: 'italic', colour: '#555' });
  switch (entry.kind) {
    case 'swatches':
    case 'channels': {
      const items = entry.kind === 'swatches' ? entry.items : entry.channels;
      const symbol: LegendSymbol = entry.kind === 'swatches' ? entry.symbol : 'fill';
      if (entry.kind === 'swatches') titleOf(entry.title);
      for (const item of items) {
        if (!pen.fits(row)) return false;
        drawSwatch(ctx, symbol, item, box.x, pen.y, size);
        ctx.font = font(f.body);
        ctx.fillStyle = '#222';
        ctx.textBaseline = 'middle';
        const x = box.x + size * 1.4 + f.body * 0.6;
        ctx.fillText(fitText(ctx, item.label, box.x + box.width - x), x, pen.y + size / 2);
        pen.y += row;
      }
      return true;
    }
    case 'ramp': {
      if (!pen.fits(size + f.small * 3)) return false;
      titleOf(entry.title);
      const gradient = ctx.createLinearGradient(box.x, 0, box.x + box.width * 0.9, 0);
      entry.colours.forEach((c, i) => gradient.addColorStop(entry.colours.length === 1 ? 0 : i / (entry.colours.length - 1), c));
      ctx.fillStyle = gradient;
      ctx.fillRect(box.x, pen.y, box.width * 0.9, size);
      pen.y += size + 2;
      ctx.font = font(f.small);
      ctx.fillStyle = '#444';
      ctx.textBaseline = 'top';
      ctx.fillText(entry.low, box.x, pen.y);
      ctx.textAlign = 'right';
      ctx.fillText(entry.high, box.x + box.width * 0.9, pen.y);
      ctx.textAlign = 'left';
      pen.y += f.small * 1.5;
      return true;
    }
    case 'grid': {
      const cell = size;
      if (!pen.fits(cell * 3 + f.small * 3)) return false;
      // Rows top to bottom are high to low y; columns low to high x (as MapLegendEntry draws it).
      [2, 1, 0].forEach((gy, r) =>
        [0, 1, 2].forEach((gx) => {
          ctx.fillStyle = entry.palette[gx + 3 * gy]!;
          ctx.fillRect(box.x + gx * cell, pen.y + r * cell, cell, cell);
        }),
      );
      pen.y += cell * 3 + 3;
      pen.text(`↑ ${entry.yLabel}`, f.small, { colour: '#444' });
      pen.text(`→ ${entry.xLabel}`, f.small, { colour: '#444' });
      return true;
    }
    case 'note':
      if (!pen.fits(f.small * 1.4)) return false;
      pen.text(legendNoteText(entry), f.small, { style: 'italic', colour: '#555' });
      return true;
  }
}

/** The legend, top of the layer stack first; "… and N more layers" when the box is full. */
export function drawLegend(ctx: CanvasRenderingContext2D, box: Box, legends: readonly LayerLegend[], fonts: LegendFonts): void {
  const pen = new LegendPen(ctx, box, fonts);
  pen.text(i18n.t('map:legend'), fonts.heading * 1.1, { weight: 'bold' });
  pen.y += fonts.body * 0.3;
  let drawn = 0;
  let complete = true;
  for (const legend of legends) {
    if (!pen.fits(fonts.heading * 1.4 + fonts.body * 1.7)) {
      complete = false;
      break;
    }
    pen.text(legend.name, fonts.heading, { weight: 'bold' });
    for (const entry of legend.entries) if (!(complete = drawEntry(pen, entry))) break;
    drawn += 1;
    if (!complete) break;
    pen.y += fonts.body * 0.6;
  }
  if (!complete) {
    const rest = legends.length - drawn;
    pen.text(rest > 0 ? i18n.t('map:legendMoreLayers', { count: rest }) : i18n.t('map:legendMoreClasses'), fonts.small, {
      style: 'italic',
      colour: '#666',
    });
  }
}
