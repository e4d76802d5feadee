import type { Page } from 'playwright-core';

type LonLat = [number, number];

/**
 * The measure tool and the coordinate readout, over their data-testids (README: Public test
 * contract). Positions are geographic; the driver turns them into page pixels with the map's
 * own projection and reads back where a pixel really is (`unproject`): a click lands on a
 * whole pixel, not on the exact position asked for.
 */
export class MeasureDriver {
  constructor(readonly page: Page) {}

  /** Page pixel of a position (the map container's offset added). */
  async pagePoint([lon, lat]: LonLat): Promise<{ x: number; y: number }> {
    const p = await this.page.evaluate(
      ([lo, la]) => {
        const map = (window as unknown as { __mapwright: { map: { project(p: LonLat): { x: number; y: number } } } }).__mapwright.map;
        return map.project([lo, la]);
      },
      [lon, lat] as LonLat,
    );
    const box = (await this.page.getByTestId('map').boundingBox())!;
    return { x: Math.round(box.x + p.x), y: Math.round(box.y + p.y) };
  }

  /** Where a page pixel is on the map, [lon, lat]. */
  async lonLatAt(page: { x: number; y: number }): Promise<LonLat> {
    const box = (await this.page.getByTestId('map').boundingBox())!;
    return this.page.evaluate(
      ([x, y]) => {
        const map = (window as unknown as { __mapwright: { map: { unproject(p: [number, number]): { lng: number; lat: number } } } })
          .__mapwright.map;
        const at = map.unproject([x, y]);
        return [at.lng, at.lat] as LonLat;
      },
      [page.x - box.x, page.y - box.y] as [number, number],
    );
  }

  async setActive(on: boolean): Promise<void> {
    const button = this.page.getByTestId('measure-tool');
    if ((await button.getAttribute('aria-pressed')) !== String(on)) await button.click();
    await this.page.locator(`[data-testid="measure-tool"][aria-pressed="${on}"]`).waitFor();
  }

  async setMode(mode: 'distance' | 'area'): Promise<void> {
    await this.page.getByTestId(`measure-mode-${mode}`).click();
  }

  async clear(): Promise<void> {
    await this.page.getByTestId('measure-clear').click();
  }

  /** Clicks each position, then finishes with a double-click on the last (or Enter); returns where the clicks landed. */
  async measure(points: readonly LonLat[], finish: 'dblclick' | 'enter' = 'dblclick'): Promise<LonLat[]> {
    const clicked: LonLat[] = [];
    for (const [i, p] of points.entries()) {
      const px = await this.pagePoint(p);
      if (i === points.length - 1 && finish === 'dblclick') await this.page.mouse.dblclick(px.x, px.y);
      else await this.page.mouse.click(px.x, px.y);
      clicked.push(await this.lonLatAt(px));
    }
    if (finish === 'enter') await this.page.keyboard.press('Enter');
    await this.page.locator('[data-testid="measure-result"][data-finished="true"]').waitFor();
    return clicked;
  }

  /** The result's raw number (`data-metres` or `data-square-metres`) and its text. */
  async result(): Promise<{ metres: number | null; squareMetres: number | null; text: string }> {
    const result = this.page.getByTestId('measure-result');
    const num = async (name: string) => {
      const v = await result.getAttribute(name);
      return v === null ? null : Number(v);
    };
    return { metres: await num('data-metres'), squareMetres: await num('data-square-metres'), text: (await result.textContent()) ?? '' };
  }

  /** Moves the mouse over a position and waits for the readout to show that pixel; returns the readout and the pixel's position. */
  async hover(p: LonLat): Promise<{ readout: Readout; at: LonLat }> {
    const px = await this.pagePoint(p);
    await this.page.mouse.move(px.x - 5, px.y - 5);
    await this.page.mouse.move(px.x, px.y);
    const at = await this.lonLatAt(px);
    await this.page.waitForFunction(
      ([lon, lat]) => {
        const el = document.querySelector('[data-testid="coordinate-readout"]');
        return (
          Math.abs(Number(el?.getAttribute('data-lon')) - lon) < 1e-9 &&
          Math.abs(Number(el?.getAttribute('data-lat')) - lat) < 1e-9 &&
          el?.hasAttribute('data-x')
        );
      },
      at,
      { timeout: 10_000 },
    );
    return { readout: await this.readout(), at };
  }

  async readout(): Promise<Readout> {
    // No named inner functions here: tsx would wrap them in a helper the page does not have.
    const raw = await this.page.getByTestId('coordinate-readout').evaluate((el) => ({
      text: el.textContent ?? '',
      crs: el.getAttribute('data-crs') ?? '',
      lon: el.getAttribute('data-lon'),
      lat: el.getAttribute('data-lat'),
      x: el.getAttribute('data-x'),
      y: el.getAttribute('data-y'),
    }));
    const num = (v: string | null) => (v === null ? null : Number(v));
    return { text: raw.text, crs: raw.crs, lon: num(raw.lon), lat: num(raw.lat), x: num(raw.x), y: num(raw.y) };
  }
}

export interface Readout {
  text: string;
  crs: string;
  lon: number | null;
  lat: number | null;
  x: number | null;
  y: number | null;
}
