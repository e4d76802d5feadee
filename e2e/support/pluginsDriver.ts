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
  /** Whether the plugin is switched on in this project (`data-enabled`). */
  enabled: boolean;
  /** The version and source folder the item shows. */
  version: string;
  dir: string;
  /** Tool ids whose "Read-only" mark is shown, and whether it is on (MCP tools only). */
  readOnlyMarks: Record<string, boolean>;
}

/**
 * Domain verbs for the Plugins panel (data-testids `open-plugins`, `plugins-panel`,
 * `plugin-item` with `data-plugin-id`, `data-state` and `data-enabled`, `plugin-enabled`,
 * `plugin-version`, `plugin-dir`, `plugin-tool-readonly`, `plugin-reasons`, `plugin-unsandboxed`).
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
      enabled: e.getAttribute('data-enabled') === 'true',
      version: (e.querySelector('[data-testid="plugin-version"]') as HTMLElement | null)?.innerText.trim() ?? '',
      dir: (e.querySelector('[data-testid="plugin-dir"]') as HTMLElement | null)?.innerText.trim() ?? '',
      readOnlyMarks: Object.fromEntries(
        [...e.querySelectorAll('[data-testid="plugin-tool"]')]
          .filter((t) => t.querySelector('[data-testid="plugin-tool-readonly"]'))
          .map((t) => [
            t.getAttribute('data-tool-id') ?? '',
            (t.querySelector('[data-testid="plugin-tool-readonly"]') as HTMLInputElement).checked,
          ]),
      ),
    }));
  }

  /**
   * Switches the plugin of item `id` on or off in this project with its switch, and waits
   * until the panel shows the new state (main answered with the new list).
   */
  async setEnabled(id: string, enabled: boolean, timeout = 10_000): Promise<void> {
    await this.open();
    const item = this.item(id);
    const toggle = item.getByTestId('plugin-enabled');
    if ((await toggle.isChecked()) !== enabled) await toggle.click();
    await this.page.waitForFunction(
      ({ id, enabled }) =>
        document.querySelector('[data-testid="plugin-choice-error"]') !== null ||
        document.querySelector(`[data-testid="plugin-item"][data-plugin-id="${id}"]`)?.getAttribute('data-enabled') === String(enabled),
      { id, enabled },
      { timeout },
    );
    await this.throwChoiceError();
  }

  /** Fails with main's words when the panel says a choice was refused. */
  private async throwChoiceError(): Promise<void> {
    const error = this.page.getByTestId('plugin-choice-error');
    if ((await error.count()) > 0) throw new Error(`the Plugins panel refused the choice: ${await error.innerText()}`);
  }

  /** Whether item `id` shows its plugin as switched on (the panel must be open). */
  async isEnabled(id: string): Promise<boolean> {
    return (await this.item(id).getAttribute('data-enabled')) === 'true';
  }

  /** Sets the "Read-only" mark of MCP tool `toolId` in item `id`, and waits until the panel shows it. */
  async markReadOnly(id: string, toolId: string, on: boolean, timeout = 10_000): Promise<void> {
    await this.open();
    const box = this.item(id).locator(`[data-testid="plugin-tool"][data-tool-id="${toolId}"] [data-testid="plugin-tool-readonly"]`);
    if ((await box.isChecked()) !== on) await box.click();
    await this.page.waitForFunction(
      ({ id, toolId, on }) =>
        (
          document.querySelector(
            `[data-testid="plugin-item"][data-plugin-id="${id}"] [data-testid="plugin-tool"][data-tool-id="${toolId}"] [data-testid="plugin-tool-readonly"]`,
          ) as HTMLInputElement | null
        )?.checked === on || document.querySelector('[data-testid="plugin-choice-error"]') !== null,
      { id, toolId, on },
      { timeout },
    );
    await this.throwChoiceError();
  }
}
