/**
 * The tool layer through the whole main process: the scripted model drives the loop, the
 * real worker runs GDAL. Covers prepare (the CRS-unit check and its fix), produced layers,
 * Plan/Auto, loop guards, Stop on a long worker job, undo and the audit log.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ScriptedModelServer, ScriptStep } from '../../e2e/model-server/scriptedModelServer.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';
import { outputsDirOf } from '../store/projectStore.js';
import { fixtures, haveFixtures, startApp } from './testApp.js';

interface State {
  layers: { id: string; name: string; opacity: number; info: { crs: { epsg: number } | null; featureCount: number | null } }[];
  messages: {
    role: string;
    text: string;
    tool?: { status: string; result: { ok: boolean; error?: { code: string; hint?: string; message: string } } | null };
  }[];
  project: { path: string };
}

const lastToolResult = (body: { messages: { role: string; content?: unknown }[] }) =>
  JSON.parse(String(body.messages.filter((m) => m.role === 'tool').at(-1)!.content)) as {
    ok: boolean;
    data?: Record<string, unknown>;
    error?: { code: string; hint?: string; message: string };
  };

describe('tool layer, end to end in main', { skip: !haveFixtures }, () => {
  let model: ScriptedModelServer;
  scriptedModelSuite((started) => (model = started));
  const homes: string[] = [];
  after(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

  /** A fresh app; with `mode`, switched to it; with `load`, that fixture then loaded as the person. */
  async function app(setup: { mode?: 'auto' | 'plan'; load?: string } = {}) {
    model.reset();
    const a = await startApp(model);
    homes.push(a.home);
    const state = async () => (await a.services.invoke('project/get', {})) as State;
    // Commands through the GUI's entry; tools as the person with input given to main (a path from the renderer would ask).
    const trigger = (entry: string, params: Record<string, unknown> = {}) =>
      (entry.startsWith('commands.')
        ? a.services.invoke('entries/trigger', { entry, params })
        : a.services.runForPerson(entry, params)) as Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }>;
    /** The model follows `steps` for the person's `text`; resolves when the run has finished. */
    const ask = async (steps: ScriptStep[], text: string) => {
      model.script(steps);
      await a.services.invoke('chat/send', { text });
      await a.runFinished(1);
    };
    if (setup.mode) await trigger('commands.set_mode', { mode: setup.mode });
    if (setup.load) await trigger('layers.load', { path: join(fixtures, setup.load) });
    return { ...a, state, trigger, ask };
  }

  it('a metre buffer on a degree layer is refused with the reprojection to make; then reproject and buffer load their outputs', async () => {
    const a = await app({ mode: 'auto', load: 'nc.gpkg' });
    await a.ask(
      [
        { toolCalls: [{ name: 'processing_run', arguments: { algorithm: 'buffer', params: { input: 'nc', distance: 5000 } } }] },
        (body) => {
          const r = lastToolResult(body);
          assert.equal(r.error?.code, 'invalid_params');
          const fix = /processing_run (\{.*\}) — then/.exec(r.error!.hint!)![1]!;
          return { toolCalls: [{ name: 'processing_run', arguments: JSON.parse(fix) }] };
        },
        {
          toolCalls: [
            {
              name: 'processing_run',
              arguments: { algorithm: 'buffer', params: { input: 'nc_reproject', distance: 5000 }, output_name: 'nc_5km' },
            },
          ],
        },
        { text: 'Done: nc_5km.' },
      ],
      'buffer the counties by 5 km',
    );
    const refused = lastToolResult(model.requests[1]!);
    assert.match(refused.error!.message, /degrees \(EPSG:4267\)/);
    assert.match(refused.error!.hint!, /"target_crs":"EPSG:32617"/, 'NC lies in UTM zone 17N');
    const s = await a.state();
    assert.deepEqual(
      s.layers.map((l) => l.name),
      ['nc', 'nc_reproject', 'nc_5km'],
    );
    assert.equal(s.layers[1]!.info.crs!.epsg, 32617);
    assert.equal(s.layers[2]!.info.featureCount, 100);
    assert.ok(s.messages.some((m) => m.role === 'notice' && m.text === 'Loaded layer nc_5km (tool output)'));
    const outputs = readdirSync(outputsDirOf(s.project.path));
    assert.deepEqual(outputs.sort(), ['nc_5km.gpkg', 'nc_reproject.gpkg']);
    await a.services.close();
  });

  it('Plan mode offers read tools only and refuses a write the model names anyway', async () => {
    const a = await app({ mode: 'plan' });
    await a.ask(
      [{ toolCalls: [{ name: 'layers_load', arguments: { path: join(fixtures, 'nc.gpkg') } }] }, { text: '1. layers_load nc.gpkg' }],
      'plan loading nc',
    );
    const offered = model.requests[0]!.tools!.map((t) => t.function.name);
    assert.ok(offered.includes('inspect_list_layers'));
    assert.ok(!offered.includes('layers_load') && !offered.includes('processing_run'), `only reads: ${offered}`);
    assert.match(String(model.requests[0]!.messages[0]!.content), /Plan mode is on/);
    assert.equal(lastToolResult(model.requests[1]!).error!.code, 'not_allowed');
    assert.equal((await a.state()).layers.length, 0);
    await a.services.close();
  });

  it('loop guards: the third identical call is answered loop_detected without running, and audited', async () => {
    const a = await app();
    const same = { name: 'inspect_list_layers', arguments: {} };
    await a.ask(
      [{ toolCalls: [same] }, { toolCalls: [same] }, { toolCalls: [same] }, { text: 'I will stop repeating myself.' }],
      'list layers',
    );
    assert.equal(model.requests.length, 4);
    const cards = (await a.state()).messages.filter((m) => m.role === 'tool');
    assert.deepEqual(
      cards.map((c) => (c.tool!.result!.ok ? 'ok' : c.tool!.result!.error!.code)),
      ['ok', 'ok', 'loop_detected'],
    );
    const { entries } = (await a.services.invoke('audit/list', { toolId: 'inspect.list_layers' })) as {
      entries: { decision: string; decidedBy: string; errorCode: string | null }[];
    };
    assert.deepEqual(
      entries.map((e) => [e.decision, e.decidedBy, e.errorCode]).reverse(),
      [
        ['not_needed', 'policy', null],
        ['not_needed', 'policy', null],
        ['refused', 'policy', 'loop_detected'],
      ],
      'the third call never ran, but the audit log has it',
    );
    await a.services.close();
  });

  it('loop guards: three errors with the same code in a row stop the run and say why', async () => {
    const a = await app();
    await a.ask(
      ['a', 'b', 'c', 'd'].map((layer) => ({ toolCalls: [{ name: 'inspect_layer_info', arguments: { layer } }] })),
      'describe a, b, c and d',
    );
    assert.equal(model.requests.length, 3, 'no fourth request');
    const s = await a.state();
    assert.deepEqual(
      s.messages.filter((m) => m.role === 'tool').map((c) => c.tool!.result!.error!.code),
      ['invalid_params', 'invalid_params', 'invalid_params'],
    );
    assert.match(s.messages.at(-1)!.text, /three calls in a row failed with the same error \(invalid_params\)/);
    await a.services.close();
  });

  it('the step budget (25 turns) ends a run that never stops calling tools', async () => {
    const a = await app();
    await a.ask(
      Array.from({ length: 30 }, (_, i) => ({ toolCalls: [{ name: 'inspect_list_layers', arguments: { attempt: i } }] })),
      'keep looking',
    );
    assert.equal(model.requests.length, 25);
    assert.match((await a.state()).messages.at(-1)!.text, /Stopped after 25 steps/);
    await a.services.close();
  });

  it('Stop cancels a long worker job within a second, removes its partial output, and the app stays usable', async () => {
    const a = await app({ mode: 'auto', load: 'elev.tif' });
    model.script([
      { toolCalls: [{ name: 'processing_run', arguments: { algorithm: 'resample', params: { input: 'elev', resolution: 0.00002 } } }] },
      { text: 'after stop' },
    ]);
    await a.services.invoke('chat/send', { text: 'resample the DEM very finely' });
    await a.waitFor(() => a.events.find((e) => e.name === 'tool/progress'), 'progress from the worker');
    const stoppedAt = Date.now();
    await a.services.invoke('run/stop', {});
    await a.runFinished(1);
    const took = Date.now() - stoppedAt;
    assert.ok(took < 1500, `stopped in ${took} ms`);
    const s = await a.state();
    const card = s.messages.filter((m) => m.role === 'tool').at(-1)!;
    assert.equal(card.tool!.result!.error!.code, 'cancelled');
    assert.deepEqual(
      s.layers.map((l) => l.name),
      ['elev'],
    );
    const outputs = outputsDirOf(s.project.path);
    assert.deepEqual(existsSync(outputs) ? readdirSync(outputs) : [], [], 'no partial output left');
    // Usable: the worker answers again.
    const again = await a.trigger('layers.load', { path: join(fixtures, 'countries.fgb') });
    assert.equal(again.ok, true);
    await a.services.close();
  });

  it('undo restores the previous layers exactly; revert undoes a whole turn; the audit log has every call', async () => {
    const a = await app();
    await a.trigger('layers.load', { path: join(fixtures, 'nc.gpkg') });
    const before = (await a.state()).layers;
    await a.trigger('commands.set_mode', { mode: 'auto' });
    await a.ask(
      [
        {
          toolCalls: [
            { name: 'layers_set_opacity', arguments: { layer: 'nc', opacity: 0.3 } },
            { name: 'layers_load', arguments: { path: join(fixtures, 'countries.fgb') } },
          ],
        },
        { text: 'done' },
      ],
      'fade nc and add countries',
    );
    assert.deepEqual(
      (await a.state()).layers.map((l) => [l.name, l.opacity]),
      [
        ['nc', 0.3],
        ['countries', 1],
      ],
    );

    assert.equal((await a.trigger('commands.undo')).ok, true);
    assert.deepEqual(
      (await a.state()).layers.map((l) => [l.name, l.opacity]),
      [['nc', 0.3]],
    );
    await a.trigger('layers.load', { path: join(fixtures, 'countries.fgb') });
    const reverted = await a.trigger('commands.revert_turn');
    assert.equal(reverted.ok, true);
    assert.deepEqual(
      (await a.state()).layers.map((l) => [l.name, l.opacity]),
      [['nc', 0.3]],
      'the user’s own load was its own turn',
    );
    await a.trigger('commands.undo');
    assert.deepEqual((await a.state()).layers, before, 'back to exactly the layers before the agent ran');

    const { entries } = (await a.services.invoke('audit/list', {})) as {
      entries: { toolId: string; caller: string; decision: string; outcome: string }[];
    };
    const rows = entries.map((e) => `${e.caller}:${e.toolId}:${e.decision}:${e.outcome}`).reverse();
    assert.deepEqual(rows.slice(0, 4), [
      'user:layers.load:user_action:ok',
      'user:commands.set_mode:user_action:ok',
      'model:layers.set_opacity:auto:ok',
      'model:layers.load:auto:ok',
    ]);
    const modelOnly = (await a.services.invoke('audit/list', { caller: 'model' })) as { entries: unknown[] };
    assert.equal(modelOnly.entries.length, 2);
    await a.services.close();
  });
});
