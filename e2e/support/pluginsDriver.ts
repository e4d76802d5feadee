import type { Page } from 'playwright-core';

/** One plugin version as the Plugins panel shows it. */
export interface PluginListing {
  id: string;
  state: string;
  /** Everything the item says (name, version, origin, folder, tools, reasons). */
  text: string;
  /** Tool ids (`namespace.name`) listed under it. */
  tools: string[];
  /** Why it is unavailable, one line each; empty when available. */
  reasons: string[];
  unsandboxed: boolean;
}

/**
 * Domain verbs for the Plugins panel (data-testids `open-plugins`, `plugins-panel`,
 * `plugin-item` with `data-plugin-id` and `data-state`, `plugin-reasons`, `plugin-unsandboxed`).
 * Only this file knows its selectors.
 */
export class PluginsDriver {
  constructor(readonly page: Page) {}

  private get panel() {
    return this.page.getByTestId('plugins-panel');
  }

  private item(id: string) {
    return this.page.locator(`[data-testid="plugin-item"][data-plugin-id="${id}"]`);
  }

  async open(): Promise<void> {
    if ((await this.panel.count()) === 0) await this.page.getByTestId('open-plugins').click();
    await this.panel.waitFor({ state: 'visible' });
  }

  async close(): Promise<void> {
    if ((await this.panel.count()) > 0) await this.page.getByTestId('open-plugins').click();
    await this.panel.waitFor({ state: 'detached' });
  }

  /** The ids and states listed, in the panel's order (the panel must be open). */
  async list(): Promise<{ id: string; state: string }[]> {
    return this.page
      .getByTestId('plugin-item')
      .evaluateAll((items) =>
        items.map((e) => ({ id: e.getAttribute('data-plugin-id') ?? '', state: e.getAttribute('data-state') ?? '' })),
      );
  }

  /**
   * Opens the panel and waits until it lists `id` (in `state`, when given): the list follows
   * the plugin folders live, so this also waits out a hot reload.
   */
  async waitForPlugin(id: string, state?: 'available' | 'unavailable', timeout = 20_000): Promise<PluginListing> {
    await this.open();
    await this.page.waitForFunction(
      ({ id, state }) =>
        [...document.querySelectorAll('[data-testid="plugin-item"]')].some(
          (e) => e.getAttribute('data-plugin-id') === id && (state === null || e.getAttribute('data-state') === state),
        ),
      { id, state: state ?? null },
      { timeout },
    );
    return this.read(id);
  }

  async read(id: string): Promise<PluginListing> {
    const item = this.item(id);
    return item.evaluate((e) => ({
      id: e.getAttribute('data-plugin-id') ?? '',
      state: e.getAttribute('data-state') ?? '',
      text: (e as HTMLElement).innerText,
      tools: [...e.querySelectorAll('[data-testid="plugin-tool"]')].map((t) => t.getAttribute('data-tool-id') ?? ''),
      reasons: [...e.querySelectorAll('[data-testid="plugin-reasons"] li')].map((r) => (r as HTMLElement).innerText.trim()),
      unsandboxed: e.querySelector('[data-testid="plugin-unsandboxed"]') !== null,
    }));
  }
}
