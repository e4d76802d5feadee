import type { Page } from 'playwright-core';
import { onMap } from './mapHandle.js';

/** A rendered table row: its feature id, index in the current sort/filter, cells, selection. */
export interface TableRow {
  fid: number;
  index: number;
  cells: Record<string, string>;
  selected: boolean;
}

/**
 * Verbs for the attribute table, selection and identify, over the public test contract
 * (README: `attribute-*`, `identify-*`, the `mapwright-selection` source).
 */
export class AttributeTableDriver {
  constructor(readonly page: Page) {}

  private table() {
    return this.page.getByTestId('attribute-table');
  }

  async open(layerName: string): Promise<void> {
    await this.page.locator(`[data-testid="layer-item"][data-layer-name="${layerName}"] [data-testid="layer-open-table"]`).click();
    await this.page.locator(`[data-testid="attribute-table"][data-layer-name="${layerName}"]`).waitFor();
    await this.table().getByTestId('attribute-row').first().waitFor();
  }

  async close(): Promise<void> {
    await this.page.getByTestId('attribute-table-close').click();
    await this.table().waitFor({ state: 'detached' });
  }

  async count(): Promise<string> {
    return this.page.getByTestId('attribute-count').innerText();
  }

  async waitForCount(pattern: RegExp): Promise<string> {
    await this.page.waitForFunction(
      (source) => new RegExp(source).test(document.querySelector('[data-testid="attribute-count"]')?.textContent ?? ''),
      pattern.source,
    );
    return this.count();
  }

  /** The rows in the DOM (the visible ones and a few around), in index order. */
  async rows(): Promise<TableRow[]> {
    const fields = await this.page.getByTestId('attribute-column').evaluateAll((els) => els.map((e) => e.getAttribute('data-field') ?? ''));
    const rows = await this.page.getByTestId('attribute-row').evaluateAll((els) =>
      els.map((e) => ({
        fid: Number(e.getAttribute('data-fid')),
        index: Number(e.getAttribute('data-index')),
        texts: [...e.querySelectorAll('[role="cell"]')].map((c) => c.textContent ?? ''),
        selected: e.getAttribute('aria-selected') === 'true',
      })),
    );
    return rows
      .map((r) => ({
        fid: r.fid,
        index: r.index,
        selected: r.selected,
        cells: Object.fromEntries(fields.map((f, i) => [f, r.texts[i] ?? ''])),
      }))
      .sort((a, b) => a.index - b.index);
  }

  /** Clicks a column header and waits until the table shows that sort. */
  async sortBy(field: string, expected: 'asc' | 'desc' | 'none'): Promise<void> {
    const column = this.page.locator(`[data-testid="attribute-column"][data-field="${field}"]`);
    await column.locator('button').click();
    await this.page.locator(`[data-testid="attribute-column"][data-field="${field}"][data-sort="${expected}"]`).waitFor();
  }

  /** Types a filter and presses Enter. */
  async filter(where: string): Promise<void> {
    const input = this.page.getByTestId('attribute-filter');
    await input.fill(where);
    await input.press('Enter');
  }

  async filterError(): Promise<string> {
    const error = this.page.getByTestId('attribute-filter-error');
    await error.waitFor();
    return (await error.getAttribute('title')) ?? (await error.innerText());
  }

  /** Scrolls so that row `index` is at the top: scrollTop = index × data-scroll-per-row (README). */
  async scrollToIndex(index: number): Promise<void> {
    await this.page.getByTestId('attribute-table-scroll').evaluate((el, i) => {
      el.scrollTop = i * Number((el as HTMLElement).dataset.scrollPerRow);
    }, index);
    await this.page.locator(`[data-testid="attribute-row"][data-index="${index}"]`).waitFor();
  }

  async clickRow(fid: number, modifiers: ('Shift' | 'Control')[] = []): Promise<void> {
    await this.page.locator(`[data-testid="attribute-row"][data-fid="${fid}"]`).click({ modifiers });
  }

  /** "Zoom to selection" (the map fits the selected features; wait for the view with AppDriver). */
  async zoomToSelection(): Promise<void> {
    await this.page.getByTestId('attribute-zoom-selection').click();
  }

  /** Waits until more than `n` features are selected. */
  async waitForSelectedMoreThan(n: number): Promise<number> {
    await this.page.waitForFunction(
      (min) => Number(document.querySelector('[data-testid="attribute-selection-count"]')?.getAttribute('data-count') ?? 0) > min,
      n,
    );
    return this.selectedCount();
  }

  async selectedCount(): Promise<number> {
    const el = this.page.getByTestId('attribute-selection-count');
    return (await el.count()) === 0 ? 0 : Number(await el.getAttribute('data-count'));
  }

  async columnWidth(field: string): Promise<number> {
    return (await this.page.locator(`[data-testid="attribute-column"][data-field="${field}"]`).boundingBox())!.width;
  }

  /** Drags the right edge of a column's header by dx pixels. */
  async resizeColumn(field: string, dx: number): Promise<void> {
    const handle = this.page.locator(`[data-testid="attribute-column"][data-field="${field}"] [data-testid="attribute-column-resize"]`);
    const box = (await handle.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx / 2, y, { steps: 4 });
    await this.page.mouse.move(x + dx, y, { steps: 4 });
    await this.page.mouse.up();
  }

  /** Feature ids in the map's selection highlight source. */
  async highlightFids(): Promise<number[]> {
    return onMap(this.page, async (map) => {
      const source = map.getSource('mapwright-selection');
      const data = source?.getData ? await source.getData() : { features: [] };
      return data.features.map((f) => Number(f.id)).sort((a, b) => a - b);
    });
  }

  /**
   * Waits until the highlight holds `count` features: the selection's ids arrive first, the
   * geometries to draw are fetched after them.
   */
  async waitForHighlightCount(count: number): Promise<number[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const have = await this.highlightFids();
      if (have.length === count) return have;
      if (Date.now() > deadline) throw new Error(`highlight has ${have.length} features, expected ${count}`);
      await this.page.waitForTimeout(100);
    }
  }

  async waitForHighlight(fids: readonly number[]): Promise<void> {
    const want = [...fids].sort((a, b) => a - b).join(',');
    const deadline = Date.now() + 15_000;
    for (;;) {
      const have = (await this.highlightFids()).join(',');
      if (have === want) return;
      if (Date.now() > deadline) throw new Error(`highlight has [${have}], expected [${want}]`);
      await this.page.waitForTimeout(100);
    }
  }

  /** Page coordinates of a geographic point on the map. */
  async pagePoint(lon: number, lat: number): Promise<{ x: number; y: number }> {
    const p = await onMap(this.page, (map, at) => map.project(at), [lon, lat] as [number, number]);
    const box = (await this.page.getByTestId('map').boundingBox())!;
    return { x: box.x + p.x, y: box.y + p.y };
  }

  /** A plain click on the map, then the identify popup's sections once read. */
  async identifyAt(
    lon: number,
    lat: number,
  ): Promise<{ layerName: string; features: { fid: number; attributes: Record<string, string> }[] }[]> {
    const p = await this.pagePoint(lon, lat);
    await this.page.mouse.click(p.x, p.y);
    const popup = this.page.getByTestId('identify-popup');
    await popup.waitFor();
    await this.page.locator('[data-testid="identify-popup"][data-loading="false"]').waitFor();
    return popup.getByTestId('identify-section').evaluateAll((sections) =>
      sections.map((s) => ({
        layerName: s.querySelector('h3')?.textContent ?? '',
        features: [...s.querySelectorAll('[data-testid="identify-feature"]')].map((t) => ({
          fid: Number(t.getAttribute('data-fid')),
          attributes: Object.fromEntries(
            [...t.querySelectorAll('tr')].map((tr) => [tr.getAttribute('data-field') ?? '', tr.querySelector('td')?.textContent ?? '']),
          ),
        })),
      })),
    );
  }

  /** Shift-drag from one geographic corner to the other (box selection). */
  async boxSelect(from: [number, number], to: [number, number]): Promise<void> {
    const a = await this.pagePoint(...from);
    const b = await this.pagePoint(...to);
    await this.page.keyboard.down('Shift');
    await this.page.mouse.move(a.x, a.y);
    await this.page.mouse.down();
    await this.page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
    await this.page.mouse.move(b.x, b.y, { steps: 5 });
    await this.page.mouse.up();
    await this.page.keyboard.up('Shift');
  }
}
