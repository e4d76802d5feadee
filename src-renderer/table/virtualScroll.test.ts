import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SCROLL_HEIGHT, realTopOf, scrollHeightFor, scrollPerRow, scrollTopToReveal, visibleRows } from './virtualScroll.js';

const small = { rowCount: 100, rowHeight: 24, viewportHeight: 240 };
const huge = { rowCount: 1_000_000, rowHeight: 24, viewportHeight: 240 };

describe('virtualScroll', () => {
  it('is unscaled while the rows fit', () => {
    assert.equal(scrollHeightFor(small), 2400);
    assert.equal(scrollPerRow(small), 24);
    const v = visibleRows(240, small, 0);
    assert.deepEqual([v.first, v.last], [10, 20]);
    assert.equal(v.rowTop(10), 240);
  });

  it('caps the scroll height of a million rows and still reaches the first and the last row', () => {
    assert.equal(scrollHeightFor(huge), MAX_SCROLL_HEIGHT);
    const top = visibleRows(0, huge, 0);
    assert.equal(top.first, 0);
    const maxScroll = MAX_SCROLL_HEIGHT - huge.viewportHeight;
    const bottom = visibleRows(maxScroll, huge, 0);
    assert.equal(bottom.last, huge.rowCount - 1);
    // The last row's bottom edge is the viewport's bottom edge.
    assert.ok(Math.abs(bottom.rowTop(huge.rowCount - 1) + 24 - (maxScroll + huge.viewportHeight)) < 1e-6);
  });

  it('scrollTop = index × scrollPerRow puts that row on top (the tests’ way to reach row 900,000)', () => {
    const per = scrollPerRow(huge);
    assert.ok(per < 24 && per > 7);
    const scrollTop = 900_000 * per;
    const v = visibleRows(scrollTop, huge, 0);
    assert.equal(v.first, 900_000);
    assert.ok(Math.abs(v.rowTop(900_000) - scrollTop) < 1e-6, 'row 900,000 at the top of the view');
    // Browsers round scrollTop to whole pixels: the row is still the top one.
    assert.equal(Math.floor(realTopOf(Math.round(scrollTop), huge) / 24), 900_000);
  });

  it('reveals a row with the smallest move, and leaves a visible row alone', () => {
    assert.equal(scrollTopToReveal(5, 0, small), 0);
    assert.equal(scrollTopToReveal(50, 0, small), 51 * 24 - 240);
    assert.equal(scrollTopToReveal(3, 480, small), 72);
    const s = scrollTopToReveal(500_000, 0, huge);
    const v = visibleRows(s, huge, 0);
    assert.ok(v.first <= 500_000 && 500_000 <= v.last);
  });

  it('renders nothing for an empty table', () => {
    const v = visibleRows(0, { rowCount: 0, rowHeight: 24, viewportHeight: 240 }, 6);
    assert.ok(v.last < v.first);
  });
});
