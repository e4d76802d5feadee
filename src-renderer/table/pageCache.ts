import type { AttributeRow } from '../../src-shared/bridge/attributeContract.js';

/** Rows fetched per `layers/rows` call. */
export const PAGE_SIZE = 200;
/** Pages kept: a few screens around the view; a million-row table never sits in memory. */
export const MAX_PAGES = 12;

export const pageOf = (index: number) => Math.floor(index / PAGE_SIZE);

/** Page numbers covering rows first..last (inclusive). */
export function pagesFor(first: number, last: number): number[] {
  if (last < first) return [];
  const pages: number[] = [];
  for (let p = pageOf(first); p <= pageOf(last); p++) pages.push(p);
  return pages;
}

/**
 * The attribute table's rows of one query (layer + sort + filter), by page. A new query starts
 * a new cache. Pages far from the view are dropped once more than `maxPages` are held.
 */
export class PageCache {
  private readonly pages = new Map<number, readonly AttributeRow[]>();
  /** fid → row index over the loaded pages: a feature selected on the map is found here. */
  private readonly indexByFid = new Map<number, number>();

  constructor(private readonly maxPages = MAX_PAGES) {}

  has(page: number): boolean {
    return this.pages.has(page);
  }

  put(page: number, rows: readonly AttributeRow[]): void {
    this.drop(page);
    this.pages.set(page, rows);
    rows.forEach((row, i) => this.indexByFid.set(row.fid, page * PAGE_SIZE + i));
  }

  rowAt(index: number): AttributeRow | undefined {
    return this.pages.get(pageOf(index))?.[index % PAGE_SIZE];
  }

  indexOfFid(fid: number): number | undefined {
    return this.indexByFid.get(fid);
  }

  /** Fids of the loaded rows between two indexes (either order, inclusive): shift-click ranges. */
  fidsBetween(a: number, b: number): number[] {
    const fids: number[] = [];
    for (let i = Math.min(a, b); i <= Math.max(a, b); i++) {
      const row = this.rowAt(i);
      if (row) fids.push(row.fid);
    }
    return fids;
  }

  /** Pages of first..last not loaded yet. */
  missing(first: number, last: number): number[] {
    return pagesFor(first, last).filter((p) => !this.pages.has(p));
  }

  /** Drops the pages farthest from `center` until at most maxPages remain. */
  trim(center: number): void {
    if (this.pages.size <= this.maxPages) return;
    const byDistance = [...this.pages.keys()].sort((a, b) => Math.abs(b - center) - Math.abs(a - center));
    for (const page of byDistance.slice(0, this.pages.size - this.maxPages)) this.drop(page);
  }

  get size(): number {
    return this.pages.size;
  }

  private drop(page: number): void {
    const rows = this.pages.get(page);
    if (!rows) return;
    this.pages.delete(page);
    for (const row of rows) {
      const index = this.indexByFid.get(row.fid);
      if (index !== undefined && pageOf(index) === page) this.indexByFid.delete(row.fid);
    }
  }
}
