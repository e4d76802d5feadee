import type { Locator, Page } from 'playwright-core';
import type { PgTestCluster } from '../../src-main/postgis/testing/pgTestCluster.js';

/**
 * The PostGIS panel as the specs drive it (issue 16), by its data-testids only: open it, add a
 * connection to a test cluster, find a connection and one of its tables, load a table.
 */
export function postgisPanel(page: () => Page) {
  const item = (name: string): Locator => page().locator(`[data-testid="postgis-connection-item"][data-name="${name}"]`);
  const tableRow = (conn: Locator, schema: string, table: string): Locator =>
    conn.locator(`[data-testid="postgis-table-item"][data-schema="${schema}"][data-table="${table}"]`);

  async function open(): Promise<void> {
    const p = page();
    if ((await p.getByTestId('postgis-panel').count()) === 0) await p.getByTestId('postgis-open').click();
    await p.getByTestId('postgis-panel').waitFor();
  }

  /** Fills the form for `c` (no TLS) and saves it; the saved connection's item. */
  async function addConnection(c: PgTestCluster, o: { name: string; password: string; outputSchema?: string }): Promise<Locator> {
    const p = page();
    await p.getByTestId('postgis-add').click();
    const form = p.getByTestId('postgis-form');
    await form.waitFor();
    await p.getByTestId('postgis-name').fill(o.name);
    await p.getByTestId('postgis-host').fill(c.host);
    await p.getByTestId('postgis-port').fill(String(c.port));
    await p.getByTestId('postgis-database').fill(c.database);
    await p.getByTestId('postgis-user').fill(c.user);
    await p.getByTestId('postgis-password').fill(o.password);
    await p.getByTestId('postgis-sslmode').selectOption('disable');
    if (o.outputSchema) await p.getByTestId('postgis-output-schema').fill(o.outputSchema);
    await p.getByTestId('postgis-save').click();
    await form.waitFor({ state: 'detached' });
    const saved = item(o.name);
    await saved.waitFor();
    return saved;
  }

  /** Browses connection `name` (unless listed already) and presses Load on `schema.table`; its row once it says loaded or failed. */
  async function load(name: string, schema: string, table: string, timeout = 120_000): Promise<Locator> {
    await open();
    const conn = item(name);
    if ((await conn.getByTestId('postgis-table-list').count()) === 0) await conn.getByTestId('postgis-browse').click();
    await conn.getByTestId('postgis-table-list').waitFor({ timeout: 20_000 });
    const row = tableRow(conn, schema, table);
    await row.getByTestId('postgis-load').click();
    await row.locator('[data-testid="postgis-loaded"], [data-testid="postgis-error"]').first().waitFor({ timeout });
    return row;
  }

  return { open, item, tableRow, addConnection, load };
}
