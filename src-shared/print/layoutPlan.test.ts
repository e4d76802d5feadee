import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAGE_SIZES, pagePoints } from '../domain/printLayout.js';
import { planLayout, type Box, type LayoutPlan } from './layoutPlan.js';

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const BOXES = ['title', 'map', 'legend', 'northArrow', 'scaleBar', 'attribution', 'date'] as const;

function checkPlan(plan: LayoutPlan) {
  const page = { x: 0, y: 0, width: plan.page.widthPx, height: plan.page.heightPx };
  for (const name of BOXES) {
    assert.ok(inside(plan[name], page), `${name} is on the page`);
    assert.ok(plan[name].width > 0 && plan[name].height > 0, `${name} has a size`);
  }
  for (const [i, a] of BOXES.entries())
    for (const b of BOXES.slice(i + 1)) assert.ok(!overlap(plan[a], plan[b]), `${a} and ${b} do not overlap`);
}

describe('print layout plan', () => {
  it('A4 landscape at 150 DPI is 1754 × 1240 px; A4 portrait the other way round', () => {
    const land = planLayout('A4', 'landscape', 150);
    assert.deepEqual([land.page.widthPx, land.page.heightPx], [1754, 1240]);
    const port = planLayout('A4', 'portrait', 150);
    assert.deepEqual([port.page.widthPx, port.page.heightPx], [1240, 1754]);
  });
  it('pages in points: A4 595 × 842, A3 842 × 1191, Letter 612 × 792 (portrait)', () => {
    const pts = (s: (typeof PAGE_SIZES)[number]) => Object.values(pagePoints(s, 'portrait')).map(Math.round);
    assert.deepEqual(pts('A4'), [595, 842]);
    assert.deepEqual(pts('A3'), [842, 1191]);
    assert.deepEqual(pts('Letter'), [612, 792]);
  });
  it('every box is on the page and none overlaps another, on every size and orientation', () => {
    for (const size of PAGE_SIZES) for (const o of ['landscape', 'portrait'] as const) checkPlan(planLayout(size, o, 150));
  });
  it('landscape: the legend is a panel right of the map; portrait: a band under it', () => {
    const land = planLayout('A4', 'landscape', 150);
    assert.ok(land.legend.x > land.map.x + land.map.width);
    assert.ok(land.map.width > land.page.widthPx * 0.6, 'the map takes most of the width');
    const port = planLayout('A4', 'portrait', 150);
    assert.ok(port.legend.y > port.map.y + port.map.height);
    assert.ok(port.map.height > port.page.heightPx * 0.5, 'the map takes most of the height');
  });
  it('the title is on top and the footer at the bottom; sizes scale with the DPI', () => {
    const p = planLayout('A3', 'landscape', 150);
    assert.ok(p.title.y < p.map.y && p.attribution.y > p.map.y + p.map.height);
    const half = planLayout('A3', 'landscape', 75);
    assert.ok(Math.abs(half.map.width * 2 - p.map.width) <= 2);
    assert.ok(Math.abs(half.fonts.title * 2 - p.fonts.title) < 1e-9);
  });
});
