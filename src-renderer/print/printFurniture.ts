import type { Box } from '../../src-shared/print/layoutPlan.js';
import { font } from './printLegend.js';
import { planScaleBar } from './scaleBar.js';

/** The north arrow and the scale bar of a print page (issue #15). */

/**
 * An arrow pointing to north: up on an unrotated map, turned by the map's bearing (a bearing
 * of 90° puts east at the top, so north points left).
 */
export function drawNorthArrow(ctx: CanvasRenderingContext2D, box: Box, bearing: number, letterPx: number): void {
  const cx = box.x + box.width / 2;
  const arrowTop = box.y + letterPx * 1.2;
  const cy = (arrowTop + box.y + box.height) / 2;
  const half = Math.min(box.width / 2, (box.y + box.height - arrowTop) / 2);
  ctx.save();
  ctx.font = font(letterPx, 'bold');
  ctx.fillStyle = '#222';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.fillText('N', cx, box.y);
  ctx.translate(cx, cy);
  ctx.rotate((-bearing * Math.PI) / 180);
  // Two halves, dark and light, the usual compass needle.
  ctx.lineWidth = Math.max(1, half / 12);
  ctx.strokeStyle = '#222';
  ctx.beginPath();
  ctx.moveTo(0, -half);
  ctx.lineTo(half * 0.45, half);
  ctx.lineTo(0, half * 0.55);
  ctx.closePath();
  ctx.fillStyle = '#fff';
  ctx.fill();
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(0, -half);
  ctx.lineTo(-half * 0.45, half);
  ctx.lineTo(0, half * 0.55);
  ctx.closePath();
  ctx.fillStyle = '#222';
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}

/**
 * A scale bar of a round length in four alternating segments, its length under the right end;
 * the scale is the map centre's (web mercator varies with latitude). Nothing when unknown.
 */
export function drawScaleBar(ctx: CanvasRenderingContext2D, box: Box, metresPerPagePixel: number, textPx: number): void {
  const bar = planScaleBar(metresPerPagePixel, box.width * 0.85);
  if (!bar) return;
  const height = Math.max(4, textPx * 0.55);
  const x = box.x;
  const y = box.y + textPx * 0.2;
  const segments = 4;
  ctx.save();
  ctx.lineWidth = Math.max(1, height / 6);
  ctx.strokeStyle = '#222';
  for (let i = 0; i < segments; i++) {
    ctx.fillStyle = i % 2 === 0 ? '#222' : '#fff';
    ctx.fillRect(x + (bar.pixels * i) / segments, y, bar.pixels / segments, height);
  }
  ctx.strokeRect(x, y, bar.pixels, height);
  ctx.font = font(textPx);
  ctx.fillStyle = '#222';
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  ctx.fillText('0', x, y + height + textPx * 0.25);
  ctx.textAlign = 'right';
  ctx.fillText(bar.label, x + bar.pixels, y + height + textPx * 0.25);
  ctx.restore();
}
