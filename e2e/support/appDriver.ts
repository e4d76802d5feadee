import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { repoRoot } from './webHost.js';

export const screenshotDir = join(repoRoot, 'e2e', 'screenshots');

/**
 * Domain verbs over the public test contract (the data-testids of the README). Specs speak
 * in these words; only this file and browser.ts know Playwright.
 */
export class AppDriver {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.waitForMapIdle();
  }

  async waitForMapIdle(): Promise<void> {
    await this.page.waitForSelector('[data-testid="map"][data-map-loaded="true"]', { timeout: 30_000 });
    await this.page.waitForFunction(() => {
      const w = window as unknown as { __mapwright?: { map?: { loaded(): boolean; areTilesLoaded(): boolean } } };
      const map = w.__mapwright?.map;
      return !!map && map.loaded() && map.areTilesLoaded();
    }, undefined, { timeout: 30_000 });
  }

  async askAgent(text: string): Promise<void> {
    await this.page.getByTestId('chat-input').fill(text);
    await this.page.getByTestId('chat-send').click();
  }

  async waitForApproval(): Promise<{ text: string }> {
    const dialog = this.page.getByTestId('approval-dialog');
    await dialog.waitFor({ state: 'visible', timeout: 20_000 });
    return { text: await dialog.innerText() };
  }

  async approvePending(options: { remember?: boolean } = {}): Promise<void> {
    await this.waitForApproval();
    if (options.remember) await this.page.getByTestId('approval-remember').check();
    await this.page.getByTestId('approval-approve').click();
    await this.page.getByTestId('approval-dialog').waitFor({ state: 'hidden' });
  }

  async rejectPending(): Promise<void> {
    await this.waitForApproval();
    await this.page.getByTestId('approval-reject').click();
    await this.page.getByTestId('approval-dialog').waitFor({ state: 'hidden' });
  }

  async layerNames(): Promise<string[]> {
    return this.page.getByTestId('layer-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer-name') ?? ''));
  }

  async waitForLayer(name: string): Promise<void> {
    await this.page.locator(`[data-testid="layer-item"][data-layer-name="${name}"]`).waitFor({ timeout: 20_000 });
  }

  async messages(): Promise<{ role: string; text: string }[]> {
    return this.page.getByTestId('chat-message').evaluateAll((els) =>
      els.map((e) => ({ role: e.getAttribute('data-role') ?? '', text: (e as HTMLElement).innerText })),
    );
  }

  async waitForMessage(role: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.messages()).find((m) => m.role === role && pattern.test(m.text));
      if (found) return found.text;
      if (Date.now() > deadline) throw new Error(`No ${role} message matching ${pattern}; have: ${JSON.stringify(await this.messages())}`);
      await this.page.waitForTimeout(150);
    }
  }

  async waitForRunIdle(): Promise<void> {
    await this.page.getByTestId('stop-run').waitFor({ state: 'hidden', timeout: 20_000 }).catch(async () => {
      await this.page.waitForFunction(() => {
        const b = document.querySelector('[data-testid="stop-run"]') as HTMLButtonElement | null;
        return !b || b.disabled;
      });
    });
  }

  /** RGBA of the map pixel at a geographic position, read from a real screenshot. */
  async mapPixelAt(lon: number, lat: number): Promise<[number, number, number, number]> {
    await this.waitForMapIdle();
    const point = await this.page.evaluate(([x, y]) => {
      const w = window as unknown as { __mapwright: { map: { project(l: [number, number]): { x: number; y: number } } } };
      return w.__mapwright.map.project([x!, y!]);
    }, [lon, lat]);
    const png = PNG.sync.read(await this.page.getByTestId('map').screenshot());
    const x = Math.round(point.x);
    const y = Math.round(point.y);
    const i = (png.width * y + x) * 4;
    return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!, png.data[i + 3]!];
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(screenshotDir, { recursive: true });
    const path = join(screenshotDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }
}

export function colourDistance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}
