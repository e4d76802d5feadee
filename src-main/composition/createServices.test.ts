import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ScriptedModelServer, ScriptStep } from '../../e2e/model-server/scriptedModelServer.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';
import { fixtures, haveFixtures, startApp } from './testApp.js';

if (!haveFixtures) console.log(`# skipping service integration tests: ${fixtures} is absent`);

describe('main services with the scripted model and the real GIS worker', { skip: !haveFixtures }, () => {
  let model: ScriptedModelServer;
  scriptedModelSuite((started) => (model = started));
  const homes: string[] = [];
  after(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));
  /** The app on `model` (or none), its home removed when the file ends. */
  async function start(withModel: ScriptedModelServer | null = model) {
    const app = await startApp(withModel);
    homes.push(app.home);
    return app;
  }
  /** A fresh app whose model follows `steps`, asked `text`. */
  async function chat(steps: ScriptStep[], text: string) {
    model.reset();
    model.script(steps);
    const app = await start();
    await app.services.invoke('chat/send', { text });
    return app;
  }
  type App = Awaited<ReturnType<typeof start>>;
  const decide = (app: App, approvalId: string, decision: 'approve' | 'reject', remember = false) =>
    app.services.invoke('tools/decide', { approvalId, decision, remember });

  it('load → approval → approve: the layer is added and the model gets the ok result', async () => {
    const gpkg = join(fixtures, 'nc.gpkg');
    const app = await chat(
      [
        { text: 'Loading it.', toolCalls: [{ name: 'layers_load', arguments: { path: gpkg } }] },
        (body) => {
          const last = body.messages.at(-1)!;
          return { text: `Result seen: ${String(last.content).slice(0, 40)}` };
        },
      ],
      `load ${gpkg}`,
    );
    const req = await app.approval();
    assert.equal(req.toolId, 'layers.load');
    assert.equal((req.args as { path: string }).path, gpkg);
    assert.equal(req.title, 'Load layer');
    await decide(app, req.id, 'approve');
    await app.runFinished(1);

    const state = (await app.services.invoke('project/get', {})) as {
      layers: { name: string; info: { featureCount: number; crs: { epsg: number } } }[];
      messages: { role: string; text: string }[];
    };
    assert.equal(state.layers.length, 1);
    assert.equal(state.layers[0]!.name, 'nc');
    assert.equal(state.layers[0]!.info.featureCount, 100, 'nc.gpkg holds the 100 North Carolina counties');
    assert.equal(state.layers[0]!.info.crs.epsg, 4267);
    const second = model.requests[1]!;
    const toolMsg = second.messages.find((m) => m.role === 'tool')!;
    const result = JSON.parse(String(toolMsg.content));
    assert.equal(result.ok, true);
    assert.equal(result.data.layer.feature_count, 100);
    // Progressive disclosure (issue 6): a run starts with inspect's tools and skills_load_skill.
    assert.ok(second.tools!.some((t) => t.function.name === 'skills_load_skill'));
    assert.deepEqual(
      state.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'notice', 'assistant'],
    );
    assert.match(state.messages[3]!.text, /Loaded layer nc \(vector, 100 features, EPSG:4267\)/);

    // The GeoJSON route serves it reprojected to lon/lat.
    const layerId = (state.layers[0] as unknown as { id: string }).id;
    const geo = await app.services.serveData(`data/layers/${layerId}.geojson`);
    assert.equal(geo.status, 200);
    const fc = JSON.parse(String(geo.body));
    assert.equal(fc.features.length, 100);
    const [lon, lat] = firstCoordinate(fc.features[0].geometry);
    assert.ok(lon > -85 && lon < -75 && lat > 33 && lat < 37, `NC lies near lon -80, lat 35; got ${lon}, ${lat}`);
    await app.services.close();

    // Restart: layers and conversation are back from the file.
    const again = await startApp(model, app.home);
    const restored = (await again.services.invoke('project/get', {})) as { layers: unknown[]; messages: unknown[] };
    assert.equal(restored.layers.length, 1);
    assert.equal(restored.messages.length, 5);
    await again.services.close();
  });

  it('reject: the next request carries rejected_by_user and the loop goes on', async () => {
    const app = await chat(
      [
        { toolCalls: [{ name: 'layers_load', arguments: { path: join(fixtures, 'countries.fgb') } }] },
        { text: 'Understood, I will not load it.' },
      ],
      'load the countries',
    );
    await decide(app, (await app.approval()).id, 'reject');
    await app.runFinished(1);
    const toolMsg = model.requests[1]!.messages.find((m) => m.role === 'tool')!;
    const result = JSON.parse(String(toolMsg.content));
    assert.deepEqual(
      { ok: result.ok, code: result.error.code, retryable: result.error.retryable },
      { ok: false, code: 'rejected_by_user', retryable: false },
    );
    const state = (await app.services.invoke('project/get', {})) as { layers: unknown[]; messages: { role: string; text: string }[] };
    assert.equal(state.layers.length, 0);
    assert.equal(state.messages.at(-1)!.text, 'Understood, I will not load it.');
    await app.services.close();
  });

  it('a remembered grant skips the second dialog; a disconnect rejects a pending approval', async () => {
    const app = await chat(
      [
        { toolCalls: [{ name: 'layers_load', arguments: { path: join(fixtures, 'countries.fgb') } }] },
        { toolCalls: [{ name: 'layers_load', arguments: { path: join(fixtures, 'nc.gpkg') } }] },
        { text: 'Both loaded.' },
      ],
      'load both',
    );
    await decide(app, (await app.approval()).id, 'approve', true);
    await app.runFinished(1);
    assert.equal(app.events.filter((e) => e.name === 'approval/requested').length, 1);
    const layers = ((await app.services.invoke('project/get', {})) as { layers: { name: string }[] }).layers.map((l) => l.name);
    assert.deepEqual(layers, ['countries', 'nc']);

    model.script([{ toolCalls: [{ name: 'layers_remove', arguments: { layer: 'nc' } }] }, { text: 'Not removed.' }]);
    await app.services.invoke('chat/send', { text: 'remove nc' });
    await app.approval();
    app.disconnect();
    // Disconnected, so no more events: poll the state instead.
    for (let i = 0; i < 100; i++) {
      const { run } = (await app.services.invoke('project/get', {})) as { run: { status: string } };
      if (run.status === 'idle') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const toolMsg = model.requests
      .at(-1)!
      .messages.filter((m) => m.role === 'tool')
      .at(-1)!;
    assert.equal(JSON.parse(String(toolMsg.content)).error.code, 'rejected_by_user');
    await app.services.close();
  });

  it('bad input gives the model a structured error and keeps everything up', async () => {
    model.reset();
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-bad-'));
    homes.push(dir);
    const fakeShp = join(dir, 'rivers.shp');
    writeFileSync(fakeShp, 'this is not a shapefile\n');
    const badJson = join(dir, 'broken.geojson');
    writeFileSync(badJson, '{"type": "FeatureCollection", "features": [');
    const empty = join(dir, 'empty.gpkg');
    writeFileSync(empty, '');
    const cases = [join(dir, 'missing.gpkg'), empty, join(fixtures, 'truncated.tiff'), fakeShp, badJson];
    const app = await start();
    // Three failures with the same code stop a run (a loop guard), so the five go in two runs.
    const results: { ok: boolean; error: { code: string; retryable: boolean; message: string } }[] = [];
    for (const [run, batch] of [cases.slice(0, 3), cases.slice(3)].entries()) {
      model.reset();
      model.script(
        batch
          .map((path): ScriptStep => ({ toolCalls: [{ name: 'layers_load', arguments: { path } }] }))
          .concat([{ text: 'None of them could be loaded.' }]),
      );
      await app.services.invoke('chat/send', { text: `load these files (${run + 1})` });
      for (let i = 0; i < batch.length; i++) {
        await decide(app, (await app.approval()).id, 'approve');
      }
      await app.runFinished(run + 1);
      results.push(...model.requests.slice(1).map((r) => JSON.parse(String(r.messages.at(-1)!.content))));
    }
    // Run 1 stopped after its third failure, so that result never went back to the model.
    assert.equal(results.length, 4);
    const state = (await app.services.invoke('project/get', {})) as { messages: { role: string; text: string }[] };
    assert.ok(state.messages.some((m) => m.role === 'notice' && /three calls in a row failed/.test(m.text)));
    for (const [i, r] of results.entries()) {
      assert.equal(r.ok, false, `case ${i}`);
      assert.equal(typeof r.error.code, 'string');
      assert.equal(typeof r.error.retryable, 'boolean');
      assert.ok(r.error.message.length > 10, `a readable message: ${r.error.message}`);
    }
    assert.match(results[0]!.error.message, /missing\.gpkg/);
    // Still alive: a good file loads after the bad ones.
    // A path from the interface is asked for like the model's (the renderer is trusted less than main).
    const pending = app.services.invoke('entries/trigger', { entry: 'layers.load', params: { path: join(fixtures, 'countries.fgb') } });
    await decide(app, (await app.approval()).id, 'approve');
    assert.equal(((await pending) as { ok: boolean }).ok, true);
    await app.services.close();
  });

  it('without a model configured, the chat says how to configure one', async () => {
    const app = await start(null);
    const { runId } = (await app.services.invoke('chat/send', { text: 'hello' })) as { runId: string | null };
    assert.equal(runId, null);
    const state = (await app.services.invoke('project/get', {})) as { messages: { role: string; text: string }[] };
    assert.equal(state.messages.at(-1)!.role, 'notice');
    assert.match(state.messages.at(-1)!.text, /MAPWRIGHT_MODEL_URL/);
    await app.services.close();
  });

  it('rejects malformed bridge payloads without acting', async () => {
    const app = await start(null);
    await assert.rejects(app.services.invoke('chat/send', { text: 42 }), /Invalid parameters for chat\/send/);
    await assert.rejects(app.services.invoke('fs/read', {}), /Unknown bridge method/);
    await app.services.close();
  });
});

function firstCoordinate(geometry: { coordinates: unknown }): [number, number] {
  let c: unknown = geometry.coordinates;
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0];
  return c as [number, number];
}
