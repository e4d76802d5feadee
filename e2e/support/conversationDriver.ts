import type { Page } from 'playwright-core';

/**
 * Domain verbs for the conversation list (data-testids `conversation-*`), beside AppDriver.
 * Specs speak in these words; only this file and appDriver.ts know the selectors.
 */
export class ConversationDriver {
  constructor(readonly page: Page) {}

  async currentTitle(): Promise<string> {
    return (await this.page.getByTestId('conversation-current-title').innerText()).trim();
  }

  async waitForCurrentTitle(title: string): Promise<void> {
    await this.page.waitForFunction(
      (t) => document.querySelector('[data-testid="conversation-current-title"]')?.textContent?.trim() === t,
      title,
      { timeout: 20_000 },
    );
  }

  async showList(): Promise<void> {
    const list = this.page.getByTestId('conversation-list');
    if (!(await list.isVisible())) await this.page.getByTestId('conversation-list-toggle').click();
    await list.waitFor({ state: 'visible' });
  }

  async hideList(): Promise<void> {
    if (await this.page.getByTestId('conversation-list').isVisible()) await this.page.getByTestId('conversation-list-toggle').click();
  }

  /** Titles in the list, newest first, and which one is current. */
  async list(): Promise<{ title: string; current: boolean }[]> {
    await this.showList();
    return this.page.getByTestId('conversation-item').evaluateAll((items) =>
      items.map((item) => ({
        title: item.querySelector('[data-testid="conversation-title"]')?.textContent?.trim() ?? '',
        current: item.getAttribute('data-current') === 'true',
      })),
    );
  }

  private item(title: string) {
    return this.page
      .getByTestId('conversation-item')
      .filter({ has: this.page.getByTestId('conversation-title').getByText(title, { exact: true }) });
  }

  async open(title: string): Promise<void> {
    await this.showList();
    await this.item(title).getByTestId('conversation-open').click();
    await this.waitForCurrentTitle(title);
  }

  async startNew(): Promise<void> {
    await this.page.getByTestId('conversation-new').click();
    await this.waitForCurrentTitle('New conversation');
  }

  async isNewEnabled(): Promise<boolean> {
    return this.page.getByTestId('conversation-new').isEnabled();
  }

  async canOpen(title: string): Promise<boolean> {
    await this.showList();
    return this.item(title).getByTestId('conversation-open').isEnabled();
  }

  async rename(title: string, to: string): Promise<void> {
    await this.showList();
    await this.item(title).getByTestId('conversation-rename').click();
    const input = this.page.getByTestId('conversation-title-input');
    await input.fill(to);
    await input.press('Enter');
    await this.item(to).waitFor({ timeout: 10_000 });
  }

  async remove(title: string): Promise<void> {
    await this.showList();
    const item = this.item(title);
    await item.getByTestId('conversation-delete').click();
    await item.getByTestId('conversation-delete-confirm').click();
    await item.waitFor({ state: 'detached', timeout: 10_000 });
  }
}
