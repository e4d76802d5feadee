/**
 * The web tools inside the whole main process (services, dispatcher, approval policy, real GIS
 * worker) with a scripted model: osm.download and web.fetch ask at every call, the dialog shows
 * the URL and the address it resolved to, and the approved download lands in the layer list.
 * The fake Overpass and the site are loopback servers this file starts, allowed through
 * MAPWRIGHT_ALLOW_ORIGINS as a person allows a local server; MAPWRIGHT_OVERPASS_URL points
 * osm.download at the fake.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { startApp } from '../composition/testApp.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';
import { type FakeOverpass, startFakeOverpass } from './testing/fakeOverpass.js';
import { startWebSite, type WebSite } from './testing/webSite.js';

describe('web tools through the dispatcher with a scripted model', () => {
  let model: ScriptedModelServer;
  scriptedModelSuite((started) => (model = started));
  let overpass: FakeOverpass;
  let site: WebSite;
  let app: Awaited<ReturnType<typeof startApp>>;
  const saved = { allow: process.env.MAPWRIGHT_ALLOW_ORIGINS, overpass: process.env.MAPWRIGHT_OVERPASS_URL };

  before(async () => {
    process.env.GDAL_PAM_ENABLED = 'NO';
    overpass = await startFakeOverpass();
    site = await startWebSite();
    process.env.MAPWRIGHT_ALLOW_ORIGINS = `${overpass.origin},${site.origin}`;
    process.env.MAPWRIGHT_OVERPASS_URL = overpass.endpoint;
    app = await startApp(model);
  });
  after(async () => {
    await app.services.close();
    rmSync(app.home, { recursive: true, force: true });
    await overpass.close();
    await site.close();
    for (const [name, value] of [
      ['MAPWRIGHT_ALLOW_ORIGINS', saved.allow],
      ['MAPWRIGHT_OVERPASS_URL', saved.overpass],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  const decide = (approvalId: string, decision: 'approve' | 'reject', remember = false) =>
    app.services.invoke('tools/decide', { approvalId, decision, remember });
  const lastToolResult = (i: number) => JSON.parse(String(model.requests[i]!.messages.findLast((m) => m.role === 'tool')!.content));

  it('osm_download asks with the endpoint, resolved host and query; approved, the GeoPackage layer is in the project', async () => {
    model.reset();
    model.script([
      {
        toolCalls: [{ name: 'osm_download', arguments: { bbox: [13.39, 52.51, 13.42, 52.53], tags: [{ key: 'amenity', value: 'cafe' }] } }],
      },
      { text: 'Cafés loaded.' },
    ]);
    await app.services.invoke('chat/send', { text: 'get the cafés of this part of Berlin' });
    const req: ApprovalRequest = await app.approval();
    assert.equal(req.toolId, 'osm.download');
    assert.equal(req.rememberable, false, 'a network tool is never remembered');
    assert.equal(req.preview!.endpoint, overpass.endpoint);
    assert.equal(req.preview!['resolved host'], '127.0.0.1');
    assert.match(String(req.preview!.query), /nwr\["amenity"="cafe"\]\(52\.51,13\.39,52\.53,13\.42\);/);
    assert.equal(overpass.queries.length, 0, 'nothing sent before the approval');
    await decide(req.id, 'approve');
    await app.runFinished(1);
    const result = lastToolResult(1);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.data.feature_count, 5);
    assert.equal(overpass.queries.length, 1);
    const state = (await app.services.invoke('project/get', {})) as { layers: { name: string; info: { featureCount: number } }[] };
    const layer = state.layers.find((l) => l.name === 'osm_amenity_cafe');
    assert.ok(layer, JSON.stringify(state.layers.map((l) => l.name)));
    assert.equal(layer.info.featureCount, 5);
  });

  it('web_fetch, a read, still asks every time (never rememberable) and shows the URL; rejected, nothing is fetched', async () => {
    model.reset();
    model.script([
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${site.origin}/page.html` } }] },
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${site.origin}/data.json` } }] },
      { text: 'Read it.' },
    ]);
    const before = site.received.length;
    await app.services.invoke('chat/send', { text: 'read the page' });
    const first = await app.approval();
    assert.equal(first.toolId, 'web.fetch');
    assert.equal(first.rememberable, false);
    assert.deepEqual(first.preview, { url: `${site.origin}/page.html`, 'resolved host': '127.0.0.1' });
    await decide(first.id, 'reject');
    const second = await app.approval();
    assert.notEqual(second.id, first.id);
    assert.equal(site.received.length, before, 'the rejected call sent nothing');
    await decide(second.id, 'approve');
    await app.runFinished(2);
    const result = lastToolResult(2);
    assert.deepEqual(result.data.json, {
      name: 'riverton',
      zones: [
        { id: 'A', chance: 0.01 },
        { id: 'X', chance: null },
      ],
    });
  });

  it('a metadata address from the model is refused before any dialog', async () => {
    model.reset();
    model.script([
      { toolCalls: [{ name: 'web_fetch', arguments: { url: 'http://169.254.169.254/latest/meta-data/' } }] },
      { text: 'Refused.' },
    ]);
    const asked = app.events.filter((e) => e.name === 'approval/requested').length;
    await app.services.invoke('chat/send', { text: 'read the metadata' });
    await app.runFinished(3);
    assert.equal(app.events.filter((e) => e.name === 'approval/requested').length, asked);
    const result = lastToolResult(1);
    assert.equal(result.ok, false);
    assert.match(result.error.message, /Refused http:\/\/169\.254\.169\.254:80/);
  });
});
