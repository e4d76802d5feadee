/**
 * The tool host without a worker process: a fake worker records what main asks of GDAL. Covers
 * Commands through the dispatcher (audit rows) and produced layers (info, free names).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { LayerInfo } from '../../src-shared/domain/layer.js';
import { defaultVectorStyle } from '../../src-shared/style/styleModel.js';
import { z } from 'zod';
import { producerTool, testTool } from '../../src-shared/tools/testing/testTool.js';
import type { LoadLayerRequest, ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { PrivatePaths } from '../security/privatePaths.js';
import { tempProjectStores } from '../store/testing/tempHomes.js';
import { auditRow } from '../tool-host/testing/testDispatcher.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { createToolHost } from './createToolHost.js';

const openProject = tempProjectStores('mapwright-host-');

const INFO: LayerInfo = {
  kind: 'vector',
  driver: 'GPKG',
  crs: { epsg: 32617, name: 'WGS 84 / UTM zone 17N', geographic: false },
  extent: [0, 0, 10, 10],
  extent4326: [-81, 0, -80, 1],
  geometryType: 'MultiPolygon',
  featureCount: 100,
  fields: [{ name: 'NAME', type: 'string' }],
  width: null,
  height: null,
  bands: [],
  sublayers: ['out'],
};

function host(produced: LoadLayerRequest[] = [], extra: ToolDefinition[] = []) {
  const { home, store } = openProject();
  const workerCalls: [string, unknown][] = [];
  const worker = {
    call: async (fn: string, args: unknown) => {
      workerCalls.push([fn, args]);
      return { ...INFO, driver: 'described' };
    },
  } as unknown as GisWorkerClient;
  const tools = createToolHost({
    store,
    worker,
    emit: () => undefined,
    privatePaths: new PrivatePaths([join(home, 'private')]),
    egress: { openFor: () => () => undefined, recent: () => [] },
    runIsLive: () => false,
    send: () => undefined,
    extraTools: [producerTool(produced), ...extra],
  });
  const audit = () => store.audit.list({}).reverse();
  return { store, tools, workerCalls, audit };
}

describe('tool host: Commands go through the dispatcher', () => {
  it('a command is validated, run and audited as the person’s action, as before', async () => {
    const h = host();
    assert.deepEqual((await h.tools.trigger('commands.set_mode', { mode: 'auto' })).ok, true);
    assert.equal(h.tools.policy.get().mode, 'auto');
    const nothing = await h.tools.trigger('commands.undo', {});
    assert.deepEqual(nothing, { ok: false, error: { code: 'not_allowed', message: 'Nothing to undo.', retryable: false } });
    const bad = await h.tools.trigger('commands.set_mode', { mode: 'yolo' });
    assert.ok(
      !bad.ok && bad.error.code === 'invalid_params' && /^Invalid parameters for commands\.set_mode: mode:/.test(bad.error.message),
    );
    assert.deepEqual(
      h.audit().map((e) => [...auditRow(e), e.args]),
      [
        ['commands.set_mode', 'user', null, null, 'user_action', 'user', 'ok', null, null, null, h.store.conversationId, { mode: 'auto' }],
        ['commands.undo', 'user', null, null, 'user_action', 'user', 'error', 'not_allowed', null, null, h.store.conversationId, {}],
        [
          'commands.set_mode',
          'user',
          null,
          null,
          'refused',
          'system',
          'error',
          'invalid_params',
          null,
          null,
          h.store.conversationId,
          { mode: 'yolo' },
        ],
      ],
    );
    h.store.close();
  });

  it('the renderer may trigger only Commands and userVisible tools, with the fields they declare', async () => {
    const h = host();
    const hidden = await h.tools.trigger('test.producer', {});
    assert.ok(!hidden.ok && hidden.error.code === 'not_allowed');
    const extra = await h.tools.trigger('layers.set_opacity', { layer: 'x', opacity: 0.5, sql: 'DROP' });
    assert.ok(
      !extra.ok && extra.error.code === 'invalid_params' && /Unknown parameters for layers\.set_opacity: sql/.test(extra.error.message),
    );
    h.store.close();
  });
});

describe('tool host: produced layers', () => {
  it('a load_layers item with info is added without asking GDAL; without it GDAL describes the file', async () => {
    const h = host([{ path: '/o/out.gpkg|layername=out', name: 'out', info: INFO }, { path: '/o/other.gpkg|layername=other' }]);
    const r = await h.tools.runForPerson('test.producer', {});
    assert.equal(r.ok, true);
    // Describing is the only look at the files; the QA report (issue 17) checks each loaded layer after.
    assert.deepEqual(
      h.workerCalls.filter(([fn]) => fn !== 'qa.check_layer'),
      [['layers.describe', { source: '/o/other.gpkg|layername=other' }]],
    );
    const [out, other] = h.store.layers.list();
    assert.deepEqual([out!.name, out!.source, out!.sublayer, out!.info], ['out', '/o/out.gpkg', 'out', INFO]);
    assert.deepEqual([other!.name, other!.sublayer, other!.info.driver], ['other', 'other', 'described']);
    h.store.close();
  });

  it('a produced layer whose name is taken gets a free one and the default style of its place', async () => {
    const h = host([{ path: '/o/a.gpkg|layername=out', name: 'out', info: INFO }]);
    await h.tools.runForPerson('test.producer', {});
    await h.tools.runForPerson('test.producer', {});
    const layers = h.store.layers.list();
    assert.deepEqual(
      layers.map((l) => l.name),
      ['out', 'out_2'],
    );
    assert.notDeepEqual(layers[0]!.style, layers[1]!.style, 'the second vector layer gets the next palette colour');
    h.store.close();
  });
});

describe('tool host: undo entries of failed changes', () => {
  it('a change that fails before changing anything leaves no undo entry; one that changed something keeps it', async () => {
    const fails = testTool({
      id: 'test.fails',
      title: 'Fails',
      description: 'Throws before changing anything.',
      input: z.object({}),
      safety: 'write',
      summary: () => 'fail',
      execute: async () => {
        throw new Error('the file could not be written');
      },
    });
    const half = testTool({
      id: 'test.half',
      title: 'Half',
      description: 'Adds a layer, then throws.',
      input: z.object({}),
      safety: 'write',
      handles: ['project'],
      summary: () => 'half',
      execute: async (_args, { handles }) => {
        handles.project.addLayer({ name: 'half', source: '/o/half.gpkg', sublayer: null, info: INFO });
        throw new Error('failed after adding a layer');
      },
    });
    const h = host([], [fails as ToolDefinition, half as ToolDefinition]);
    assert.equal((await h.tools.runForPerson('test.fails', {})).ok, false);
    assert.equal(h.store.snapshots.latest(), null, 'nothing to undo');
    assert.equal((await h.tools.runForPerson('test.half', {})).ok, false);
    assert.equal(h.store.snapshots.latest()?.toolId, 'test.half', 'the added layer can be undone');
    h.store.close();
  });
});

describe('tool host: summaries a person reads', () => {
  it('a layer id the interface passed reads as the layer’s name in the undo entry', async () => {
    const restyle = testTool({
      id: 'test.restyle',
      title: 'Restyle',
      description: 'Changes nothing; its summary names the layer.',
      input: z.object({ layer: z.string() }),
      safety: 'write',
      summary: (a) => `Restyle ${a.layer}`,
      execute: async () => ({}),
    });
    const h = host([], [restyle as ToolDefinition]);
    const layer = h.store.layers.add({
      name: 'counties',
      source: '/o/c.gpkg',
      sublayer: null,
      kind: 'vector',
      style: defaultVectorStyle(0),
      info: INFO,
    });
    assert.equal((await h.tools.runForPerson('test.restyle', { layer: layer.id })).ok, true);
    assert.equal(h.store.snapshots.latest()?.summary, 'Restyle counties');
    h.store.close();
  });
});
