/**
 * Scroll geometry of the attribute table. Rows have one fixed height and only the visible ones
 * are in the DOM. A million rows at 24 px is 24,000,000 px, past what browsers lay out (about
 * 33.5M px in Chromium, 17.9M in Firefox), so the scroll area is capped and the scroll position
 * scaled: scrollTop 0 shows the first row, the largest scrollTop the last, linearly between.
 * Visible rows are placed at `scrollTop + (row * rowHeight - realTop)`, so they sit where the
 * view is whatever the scale.
 */

/** Well under every browser's limit, and still fine-grained (8 px per row at a million rows). */
export const MAX_SCROLL_HEIGHT = 8_000_000;

export interface ScrollGeometry {
  rowCount: number;
  rowHeight: number;
  /** The scroll container's client height. */
  viewportHeight: number;
}

/** Height of the scrolled content (the spacer). */
export function scrollHeightFor(g: ScrollGeometry): number {
  return Math.min(g.rowCount * g.rowHeight, MAX_SCROLL_HEIGHT);
}

/**
 * Pixels of scrollTop per row: `rowHeight` until the cap, less after it. This is the one number
 * a caller needs to scroll to a row: `scrollTop = index * scrollPerRow` puts row `index` on top.
 */
export function scrollPerRow(g: ScrollGeometry): number {
  const real = g.rowCount * g.rowHeight;
  const scrolled = scrollHeightFor(g);
  const realRange = real - g.viewportHeight;
  const scrolledRange = scrolled - g.viewportHeight;
  if (real <= scrolled || realRange <= 0 || scrolledRange <= 0) return g.rowHeight;
  return (g.rowHeight * scrolledRange) / realRange;
}

/** Where the top of the view is in unscaled rows×rowHeight pixels. */
export function realTopOf(scrollTop: number, g: ScrollGeometry): number {
  return (Math.max(0, scrollTop) * g.rowHeight) / scrollPerRow(g);
}

export interface VisibleRows {
  /** First and last row index to render (inclusive), overscan included; last < first when empty. */
  first: number;
  last: number;
  /** Content-space top of row `index`. */
  rowTop(index: number): number;
}

export function visibleRows(scrollTop: number, g: ScrollGeometry, overscan = 6): VisibleRows {
  const realTop = realTopOf(scrollTop, g);
  const first = Math.max(0, Math.floor(realTop / g.rowHeight) - overscan);
  const last = Math.min(g.rowCount - 1, Math.ceil((realTop + g.viewportHeight) / g.rowHeight) + overscan);
  return { first, last, rowTop: (index) => scrollTop + index * g.rowHeight - realTop };
}

/**
 * The scrollTop that shows row `index`: unchanged when it is already fully in view, else the
 * smallest move that brings it in (top or bottom edge).
 */
export function scrollTopToReveal(index: number, scrollTop: number, g: ScrollGeometry): number {
  const perRow = scrollPerRow(g);
  const realTop = realTopOf(scrollTop, g);
  const rowReal = index * g.rowHeight;
  if (rowReal >= realTop && rowReal + g.rowHeight <= realTop + g.viewportHeight) return scrollTop;
  const wantedReal = rowReal < realTop ? rowReal : rowReal + g.rowHeight - g.viewportHeight;
  const max = Math.max(0, scrollHeightFor(g) - g.viewportHeight);
  return Math.min(max, Math.max(0, (wantedReal / g.rowHeight) * perRow));
}
