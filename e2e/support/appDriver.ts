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
    const id = await this.currentApprovalId();
    if (options.remember) await this.page.getByTestId('approval-remember').check();
    await this.page.getByTestId('approval-approve').click();
    await this.waitForApprovalGone(id);
  }

  async rejectPending(): Promise<void> {
    const id = await this.currentApprovalId();
    await this.page.getByTestId('approval-reject').click();
    await this.waitForApprovalGone(id);
  }

  private async currentApprovalId(): Promise<string> {
    await this.waitForApproval();
    return (await this.page.getByTestId('approval-dialog').getAttribute('data-approval-id')) ?? '';
  }

  /** The decided request's dialog is gone — hidden, or replaced at once by the next request's. */
  private async waitForApprovalGone(id: string): Promise<void> {
    await this.page.waitForFunction(
      (decided) => (document.querySelector('[data-testid="approval-dialog"]') as HTMLElement | null)?.getAttribute('data-approval-id') !== decided,
      id,
      { timeout: 30_000 },
    );
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

  // ---- model settings (settings panel) ----

  async openSettings(): Promise<void> {
    await this.page.getByTestId('settings-open').click();
    await this.page.getByTestId('settings-panel').waitFor({ state: 'visible' });
    // The form is filled from main's copy once it has loaded.
    await this.page.waitForFunction(() => (document.querySelector('[data-testid="settings-key-storage"]')?.textContent ?? '') !== '');
  }

  /** Fills the fields given, in the order a person would (the provider first: it fills defaults). */
  async fillSettings(fields: { provider?: string; wire?: string; url?: string; model?: string; key?: string; thinkingBudget?: string }): Promise<void> {
    const panel = this.page.getByTestId('settings-panel');
    if (fields.provider) await panel.getByTestId('settings-provider').selectOption(fields.provider);
    if (fields.wire) await panel.getByTestId('settings-wire').selectOption(fields.wire);
    if (fields.url !== undefined) await panel.getByTestId('settings-url').fill(fields.url);
    if (fields.model !== undefined) await panel.getByTestId('settings-model').fill(fields.model);
    if (fields.key !== undefined) await panel.getByTestId('settings-key').fill(fields.key);
    if (fields.thinkingBudget !== undefined) await panel.getByTestId('settings-thinking-budget').fill(fields.thinkingBudget);
  }

  /** The model ids the panel offers after "List models". */
  async listModels(): Promise<string[]> {
    const button = this.page.getByTestId('settings-list-models');
    await button.click();
    await this.page.waitForFunction(() => {
      const b = document.querySelector('[data-testid="settings-list-models"]') as HTMLButtonElement | null;
      return !!b && !b.disabled && /offered|Could not/.test(document.querySelector('[data-testid="settings-models-status"]')?.textContent ?? '');
    });
    return this.page.locator('#settings-model-list option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
  }

  async testConnection(): Promise<{ ok: boolean; message: string; tools: string; streaming: string; reasoning: string }> {
    await this.page.getByTestId('settings-test').click();
    const result = this.page.getByTestId('settings-test-result');
    await result.waitFor({ state: 'visible', timeout: 30_000 });
    const value = (id: string) => result.getByTestId(id).getAttribute('data-value').then((v) => v ?? '');
    return {
      ok: (await result.getAttribute('data-ok')) === 'true',
      message: await result.locator('.connection-report__message').innerText(),
      tools: await value('detected-tools'),
      streaming: await value('detected-streaming'),
      reasoning: await value('detected-reasoning'),
    };
  }

  async saveSettings(): Promise<void> {
    await this.page.getByTestId('settings-save').click();
    await this.page.getByTestId('settings-panel').waitFor({ state: 'hidden' });
  }

  async closeSettings(): Promise<void> {
    await this.page.getByTestId('settings-cancel').click();
    await this.page.getByTestId('settings-panel').waitFor({ state: 'hidden' });
  }

  /** What the status bar says about the model. */
  async modelStatus(): Promise<{ configured: boolean; text: string }> {
    const item = this.page.locator('[data-model-configured]');
    return { configured: (await item.getAttribute('data-model-configured')) === 'true', text: await item.innerText() };
  }

  /** The conversation as saved: each message's text without the live-only reasoning block. */
  async transcript(): Promise<{ role: string; text: string }[]> {
    return this.page.getByTestId('chat-message').evaluateAll((els) =>
      els.map((e) => {
        const block = e.querySelector('[data-testid="reasoning-block"]') as HTMLElement | null;
        const full = (e as HTMLElement).innerText;
        return { role: e.getAttribute('data-role') ?? '', text: (block ? full.replace(block.innerText, '') : full).trim() };
      }),
    );
  }

  /** The reasoning block of the newest assistant message that has one, or null. */
  async reasoningBlock(): Promise<{ state: string; growing: boolean; text: string } | null> {
    const blocks = this.page.getByTestId('reasoning-block');
    if ((await blocks.count()) === 0) return null;
    const last = blocks.last();
    return {
      state: (await last.getAttribute('data-state')) ?? '',
      growing: (await last.getAttribute('data-growing')) === 'true',
      text: await last.innerText(),
    };
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
