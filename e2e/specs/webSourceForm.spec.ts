import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSourceTestServer, type SourceTestServer } from '../../src-main/web/sourceTestServers.js';
import { useAppSession } from '../support/appSession.js';

/**
 * The person's "Add web source" form (issue #13): it runs `layers.add_web_source` as the user,
 * so the network dialog names the origin as it does for the model. Refused, main's error stays
 * under the form with the values kept; approved, the layer appears and the form closes.
 */
describe('the add-web-source form: the person adds a network source through the network dialog', () => {
  let server: SourceTestServer;
  // Filled before the host starts (this hook is registered before the session's).
  const env: Record<string, string> = {};
  before(async () => {
    server = await startSourceTestServer();
    env.MAPWRIGHT_ALLOW_ORIGINS = server.origin;
  });
  after(async () => {
    await server?.close();
  });
  const session = useAppSession({ env });

  const template = () => `${server.origin}/tiles/{z}/{x}/{y}.png`;
  const origin = () => new RegExp(`Connects to the network:\\s*${server.origin.replace(/[.:/]/g, '\\$&')}`);

  it('checks lightly in the form; the layer name is asked for WMS and WMTS only', async () => {
    const { app, page } = await session.openApp();
    await page.getByTestId('add-web-source').click();
    const form = page.getByTestId('web-source-form');
    await form.waitFor();
    assert.equal(await page.getByTestId('web-source-layer').count(), 0);
    await page.getByTestId('web-source-kind').selectOption('wms');
    await page.getByTestId('web-source-layer').waitFor();
    await page.getByTestId('web-source-kind').selectOption('xyz');
    assert.equal(await page.getByTestId('web-source-layer').count(), 0);
    await page.getByTestId('web-source-url').fill(`${server.origin}/tiles/{z}/{x}.png`);
    await page.getByTestId('web-source-submit').click();
    assert.match(await page.getByTestId('web-source-error').innerText(), /missing \{y\}/);
    await page.getByTestId('web-source-url').fill(template());
    await page.getByTestId('web-source-name').fill('my tiles');
    await app.screenshot('w3-web-source-form');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('refused in the dialog: the error stays under the form with the values; approved: the layer appears', async () => {
    const { app, page } = await session.openApp();
    await page.getByTestId('add-web-source').click();
    await page.getByTestId('web-source-url').fill(template());
    await page.getByTestId('web-source-name').fill('my tiles');
    await page.getByTestId('web-source-submit').click();
    const first = await app.waitForApproval();
    assert.match(first.text, origin());
    await app.rejectPending();
    const error = page.getByTestId('web-source-error');
    await error.waitFor();
    assert.ok((await error.innerText()).trim().length > 0);
    assert.equal(await page.getByTestId('web-source-url').inputValue(), template());
    assert.equal(await page.getByTestId('web-source-name').inputValue(), 'my tiles');

    await page.getByTestId('web-source-submit').click();
    const second = await app.waitForApproval();
    assert.match(second.text, origin());
    await app.approvePending();
    await app.waitForLayer('my tiles');
    await page.getByTestId('web-source-form').waitFor({ state: 'detached' });
    const ids = await app.auditToolIds();
    assert.ok(ids.includes('layers.add_web_source'));
    await app.waitForMapIdle();
    assert.ok(
      server.hits.some((h) => /^GET \/tiles\//.test(h)),
      'the tiles were fetched',
    );
  });
});
