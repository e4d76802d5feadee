/**
 * Declared parameter rules (issue 17) through a real registry and dispatcher over a fake
 * project: each rule kind refuses with `invalid_params` and the nearest valid names before the
 * tool's own prepare and before any approval is asked; a call that fits goes on to the dialog.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import type { Handles } from '../../src-shared/tools/handles.js';
import { testTool } from '../../src-shared/tools/testing/testTool.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { fakeLayer, fakeProject } from '../../tools/toolTestFakes.js';
import type { NewAuditEntry } from '../store/auditRepo.js';
import { testDispatcher } from './testing/testDispatcher.js';

const UTM = { epsg: 32617, name: 'WGS 84 / UTM zone 17N', geographic: false };
const LAYERS = [
  fakeLayer({
    name: 'counties',
    id: 'L1',
    kind: 'vector',
    source: '/data/counties.gpkg',
    info: {
      fields: [
        { name: 'NAME', type: 'string' },
        { name: 'POP', type: 'integer' },
        { name: 'AREA', type: 'real' },
      ],
    },
  }),
  fakeLayer({ name: 'roads_utm', kind: 'vector', source: '/data/roads.gpkg', info: { geometryType: 'MultiLineString', crs: UTM } }),
  fakeLayer({
    name: 'dem',
    kind: 'raster',
    source: '/data/dem.tif',
    info: { bands: [{ index: 1, dataType: 'Float32', nodata: null, min: 0, max: 900 }] },
  }),
  fakeLayer({ name: 'stations', kind: 'table', source: '/data/stations.csv', fields: ['code'] }),
];

/** What a ruled test tool saw: how often its prepare and execute ran. */
const ran = { prepare: 0, execute: 0 };

function ruled(id: `${string}.${string}`, input: z.ZodObject, rules: Record<string, string[]>, group = 'ruled'): ToolDefinition {
  return testTool({
    id,
    title: id,
    description: 'A write with declared rules. Returns done.',
    input,
    rules,
    group,
    safety: 'write',
    handles: ['project'],
    summary: () => id,
    prepare: async (args) => {
      ran.prepare++;
      return { args };
    },
    execute: async () => {
      ran.execute++;
      return 'done';
    },
  }) as ToolDefinition;
}

const layer = z.string().min(1).describe('Layer');
const TOOLS = [
  ruled('test.any_layer', z.object({ layer }), { layer: ['layer_exists'] }),
  ruled('test.vector_style', z.object({ layer }), { layer: ['layer_exists', 'vector'] }, 'style'),
  ruled(
    'test.raster_style',
    z.object({ layer, band: z.number().int().default(1) }),
    { layer: ['layer_exists', 'raster'], band: ['band_exists:layer'] },
    'style',
  ),
  ruled(
    'test.text_style',
    z.object({ layer, field: z.string() }),
    { layer: ['layer_exists', 'vector'], field: ['field_exists:layer'] },
    'style',
  ),
  ruled(
    'test.numeric_style',
    z.object({ layer, field: z.string() }),
    { layer: ['layer_exists', 'vector'], field: ['field_exists:layer', 'field_numeric'] },
    'style',
  ),
  ruled('test.buffer', z.object({ layer }), { layer: ['layer_exists', 'crs_projected'] }),
  ruled('test.heat', z.object({ layer }), { layer: ['layer_exists', 'vector', 'geometry:point'] }),
  ruled('test.join', z.object({ layer }), { layer: ['layer_exists', 'table'] }),
  ruled('test.fields', z.object({ layer, fields: z.array(z.string()) }), { layer: ['layer_exists'], fields: ['field_exists:layer'] }),
  ruled('test.loose', z.object({ layer: z.union([z.string(), z.number(), z.record(z.string(), z.unknown())]) }), {
    layer: ['layer_exists'],
  }),
];

function setup() {
  ran.prepare = 0;
  ran.execute = 0;
  const asked: ApprovalRequest[] = [];
  const audit: NewAuditEntry[] = [];
  const handles = { project: fakeProject(LAYERS) } as unknown as Handles;
  const { dispatcher, broker } = testDispatcher(TOOLS, {
    handles,
    announce: (r) => asked.push(r),
    hooks: { audit: (e) => audit.push(e) },
  });
  const dispatch = (name: string, args: Record<string, unknown>) =>
    dispatcher.dispatch({
      name,
      rawArgs: JSON.stringify(args),
      caller: 'model',
      callId: 'c1',
      runId: 'r1',
      conversationId: 'k1',
      signal: new AbortController().signal,
    });
  return { dispatch, asked, audit, broker };
}

/** Dispatches a call that must be refused by its rules: before prepare, before any approval, audited as refused. */
async function refusedByRules(name: string, args: Record<string, unknown>, message: RegExp, hint?: RegExp) {
  const s = setup();
  const { result } = await s.dispatch(name, args);
  assert.ok(!result.ok, `${name} refused`);
  assert.equal(result.error.code, 'invalid_params');
  assert.match(result.error.message, message);
  if (hint) assert.match(result.error.hint ?? '', hint);
  assert.equal(s.asked.length, 0, 'no approval was asked');
  assert.deepEqual(ran, { prepare: 0, execute: 0 }, "the tool's prepare and execute never ran");
  assert.deepEqual(
    s.audit.map((e) => [e.toolId, e.decision, e.decidedBy, e.errorCode]),
    [[name.replace('_', '.'), 'refused', 'system', 'invalid_params']],
  );
  return result.error;
}

describe('declared parameter rules in the dispatcher', () => {
  it('a call that fits its rules goes on to prepare and the approval dialog', async () => {
    const s = setup();
    const pending = s.dispatch('test_numeric_style', { layer: 'counties', field: 'POP' });
    await new Promise((r) => setImmediate(r));
    assert.equal(s.asked.length, 1, 'the dialog is asked');
    assert.equal(ran.prepare, 1);
    s.broker.decide(s.asked[0]!.id, 'approve', false);
    assert.deepEqual((await pending).result, { ok: true, data: 'done' });
    assert.equal(ran.execute, 1);
  });

  it('layer_exists: an unknown layer, with the nearest names', async () => {
    await refusedByRules(
      'test_any_layer',
      { layer: 'countys' },
      /^layer: no layer 'countys' in the project\.$/,
      /^Nearest layers: counties, .*Call inspect_list_layers for ids\./,
    );
  });

  it('vector / raster: the wrong kind, naming the tools of the group that take it', async () => {
    await refusedByRules(
      'test_vector_style',
      { layer: 'dem' },
      /'dem' is a raster layer; this tool needs a vector layer/,
      /For 'dem' use test_raster_style\./,
    );
    await refusedByRules(
      'test_raster_style',
      { layer: 'counties' },
      /'counties' is a vector layer; this tool needs a raster layer/,
      /For 'counties' use test_vector_style, test_text_style, test_numeric_style\./,
    );
    await refusedByRules('test_join', { layer: 'counties' }, /'counties' is a vector layer; this tool needs a table/);
  });

  it('field_exists: an unknown field, with the nearest fields and their types', async () => {
    await refusedByRules(
      'test_text_style',
      { layer: 'counties', field: 'NAM' },
      /^field: 'counties' has no field 'NAM'\./,
      /Nearest fields of 'counties': NAME \(string\)/,
    );
    await refusedByRules('test_text_style', { layer: 'counties', field: 'name' }, /Did you mean 'NAME'\?/);
  });

  it('field_numeric: a text field, naming the numeric fields and the tools for text', async () => {
    const error = await refusedByRules(
      'test_numeric_style',
      { layer: 'counties', field: 'NAME' },
      /field 'NAME' of 'counties' holds string values; this tool needs numbers/,
      /Numeric fields of 'counties': POP \(integer\), AREA \(real\)\./,
    );
    assert.match(error.hint ?? '', /For text values use test_text_style\./);
  });

  it('crs_projected: a layer in degrees, with the reprojection to make', async () => {
    await refusedByRules('test_buffer', { layer: 'counties' }, /'counties' is in degrees \(EPSG:4326\)/, /Reproject/);
    const s = setup();
    const pending = s.dispatch('test_buffer', { layer: 'roads_utm' });
    await new Promise((r) => setImmediate(r));
    assert.equal(s.asked.length, 1, 'a projected layer passes');
    s.broker.decide(s.asked[0]!.id, 'reject', false);
    await pending;
  });

  it('geometry: lines where points are needed, saying how to make points', async () => {
    await refusedByRules('test_heat', { layer: 'roads_utm' }, /has MultiLineString geometry; this tool needs a point layer/, /centroids/);
  });

  it('band_exists: a band the raster does not have', async () => {
    await refusedByRules('test_raster_style', { layer: 'dem', band: 4 }, /^band: 'dem' has 1 band; there is no band 4\./, /1 to 1/);
  });

  it('a list of fields is checked item by item', async () => {
    await refusedByRules(
      'test_fields',
      { layer: 'counties', fields: ['NAME', 'PPO'] },
      /^fields\[1\]: 'counties' has no field 'PPO'/,
      /POP \(integer\)/,
    );
  });

  it('hostile values: SQL, a 10k-character name, a non-string where a layer is expected', async () => {
    await refusedByRules('test_any_layer', { layer: "counties' OR 1=1; DROP TABLE layers; --" }, /no layer 'counties' OR 1=1; DROP TABLE/);
    const long = await refusedByRules('test_any_layer', { layer: 'x'.repeat(10_000) }, /\(10000 characters\)/);
    assert.ok(long.message.length < 200, 'the name is clipped in the message');
    await refusedByRules('test_loose', { layer: 7 }, /^layer: expects a layer id or name \(text\), not a number\.$/);
    await refusedByRules('test_loose', { layer: { name: 'counties' } }, /not an object/);
  });
});
