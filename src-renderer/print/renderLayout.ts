import type { LayoutPlan } from '../../src-shared/print/layoutPlan.js';
import type { LayerLegend } from '../../src-shared/style/legend.js';
import { drawNorthArrow, drawScaleBar } from './printFurniture.js';
import { drawLegend, fitText, font } from './printLegend.js';
import { coverCrop } from './printText.js';

/** Everything a print page shows, gathered from the map and the store (composePrint.ts). */
export interface PageContent {
  title: string;
  /** The map as drawn (its canvas) and how much ground one of its pixels covers at the centre. */
  map: { image: CanvasImageSource; width: number; height: number; metresPerPixel: number; bearing: number };
  legends: readonly LayerLegend[];
  attribution: string;
  date: string;
}

/**
 * Draws a print page (issue #15) into `ctx`, sized to `plan.page`: title, the map cropped about
 * its centre to fill its frame (so its scale is kept and the scale bar stays true), legend,
 * north arrow, scale bar, attribution and date.
 */
export function renderLayout(ctx: CanvasRenderingContext2D, plan: LayoutPlan, content: PageContent): void {
  const { page, fonts } = plan;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, page.widthPx, page.heightPx);

  if (content.title) {
    ctx.font = font(fonts.title, 'bold');
    ctx.fillStyle = '#111';
    ctx.textBaseline = 'middle';
    ctx.fillText(fitText(ctx, content.title, plan.title.width), plan.title.x, plan.title.y + plan.title.height / 2);
  }
  // A hairline under the title band separates it from the map.
  ctx.fillStyle = '#999';
  ctx.fillRect(plan.title.x, plan.title.y + plan.title.height, plan.title.width, Math.max(1, plan.scale * 0.25));

  const { map } = content;
  const box = plan.map;
  const crop = coverCrop(map.width, map.height, box.width / box.height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(map.image, crop.x, crop.y, crop.width, crop.height, box.x, box.y, box.width, box.height);
  ctx.strokeStyle = '#333';
  ctx.lineWidth = Math.max(1, plan.scale * 0.3);
  ctx.strokeRect(box.x, box.y, box.width, box.height);

  drawLegend(ctx, plan.legend, content.legends, fonts);
  drawNorthArrow(ctx, plan.northArrow, map.bearing, fonts.heading);
  // Page pixels per map pixel: the crop is stretched over the frame.
  drawScaleBar(ctx, plan.scaleBar, map.metresPerPixel / (box.width / crop.width), fonts.body);

  ctx.font = font(fonts.small);
  ctx.fillStyle = '#555';
  ctx.textBaseline = 'middle';
  const footerY = plan.attribution.y + plan.attribution.height / 2;
  if (content.attribution) ctx.fillText(fitText(ctx, content.attribution, plan.attribution.width), plan.attribution.x, footerY);
  ctx.textAlign = 'right';
  ctx.fillText(content.date, plan.date.x + plan.date.width, footerY);
  ctx.textAlign = 'left';
}
