import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeOverpass, type FakeOverpass } from '../../src-main/web/testing/fakeOverpass.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { lastToolResult, offeredTools } from '../support/modelRequests.js';

/**
 * osm.download as a person meets it: the app started with a fake Overpass on loopback, which
 * the person allowed (MAPWRIGHT_ALLOW_ORIGINS) and named as their Overpass endpoint
 * (MAPWRIGHT_OVERPASS_URL, the app-wide override of the project setting). The scripted model
 * asks for cafés in a bbox; the dialog shows the endpoint, the address it resolved to and the
 * query; approved, the GeoPackage layer appears in the layer list and on the map.
 */
describe('osm.download in Chromium against a fake Overpass', () => {
  const env: Record<string, string> = {};
  let overpass: FakeOverpass;
  // Registered before the session's hooks: the fake is listening before the host starts with its address.
  before(async () => {
    overpass = await startFakeOverpass();
    env.MAPWRIGHT_ALLOW_ORIGINS = overpass.origin;
    env.MAPWRIGHT_OVERPASS_URL = overpass.endpoint;
  });
  after(() => overpass?.close());
  const session = useAppSession({ homePrefix: 'mapwright-e2e-web-fetch-', env });
  let { app, model } = {} as SharedApp;
  before(async () => ({ app, model } = await session.openApp()));

  it('the model downloads OSM cafés: the dialog shows the URL and resolved host, approved the layer is listed', async () => {
    const args = { bbox: [13.39, 52.51, 13.42, 52.53], tags: [{ key: 'amenity', value: 'cafe' }], name: 'berlin_cafes' };
    model.reset();
    model.script([
      (body) =>
        offeredTools(body).includes('osm_download')
          ? { text: 'Downloading the cafés.', toolCalls: [{ name: 'osm_download', arguments: args }] }
          : { text: `osm_download was not offered; got ${offeredTools(body).join(', ')}` },
      { text: 'The cafés are on the map.' },
    ]);
    await app.askAgent('download the cafés around Alexanderplatz from OpenStreetMap');
    const dialog = await app.waitForApproval();
    assert.ok(dialog.text.includes(overpass.endpoint), `the dialog shows the endpoint URL: ${dialog.text}`);
    assert.match(dialog.text, /resolved host/i);
    assert.match(dialog.text, /127\.0\.0\.1/);
    assert.ok(dialog.text.includes('nwr["amenity"="cafe"]'), 'the dialog shows the query');
    assert.equal(overpass.queries.length, 0, 'nothing is sent before the approval');
    await app.screenshot('wf1-osm-asks');

    await app.approvePending();
    await app.waitForMessage('assistant', /The cafés are on the map/);
    await app.waitForLayer('berlin_cafes');
    assert.ok((await app.layerNames()).includes('berlin_cafes'));
    const result = JSON.parse(lastToolResult(model.requests[1])) as { ok: boolean; data: { feature_count: number } };
    assert.equal(result.ok, true);
    assert.equal(result.data.feature_count, 5);
    assert.deepEqual(overpass.queries[0]!.filters, [{ key: 'amenity', value: 'cafe' }]);
    await app.fitMap([13.395, 52.512, 13.415, 52.526]);
    await app.waitForMapIdle();
    await app.screenshot('wf2-osm-layer');
  });
});
