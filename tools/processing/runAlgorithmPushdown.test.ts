/**
 * processing_run on PostGIS layers (issue 16): every input a table of one connection → the run
 * goes to the database (push-down) and the output is a new table of its results schema, or
 * without one a local GeoPackage, loaded as a layer; anything else → the GIS worker, with a
 * note saying why.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PostgisHandle } from '../../src-shared/tools/handles.js';
import { fakeLayer } from '../toolTestFakes.js';
import { runAlgorithmHarness } from './runAlgorithmTestKit.js';

const UTM = { epsg: 32617, name: 'WGS 84 / UTM zone 17N', geographic: false };
const pgLayer = (name: string, conn: string, table: string) =>
  fakeLayer({ name, kind: 'vector', source: `postgis://${conn}`, sublayer: table, info: { featureCount: 100, crs: UTM } });
const LAYERS = [
  pgLayer('counties', 'office', 'public.counties'),
  pgLayer('towns', 'office', 'public.towns'),
  pgLayer('rivers', 'archive', 'public.rivers'),
  fakeLayer({ name: 'parks', kind: 'vector', source: '/data/parks.gpkg', info: { crs: UTM } }),
];

function postgis(outputSchema: string | null) {
  const calls: Parameters<PostgisHandle['pushdown']>[0][] = [];
  const handle: PostgisHandle = {
    pushdownPlan: (id, algorithm) =>
      id !== 'office'
        ? { ok: false, reason: `the connection '${id}' has no schema for results` }
        : algorithm !== 'centroids'
          ? { ok: true, outputSchema }
          : { ok: false, reason: `${algorithm} has no form that runs inside PostGIS yet` },
    async pushdown(call, { progress }) {
      calls.push(call);
      progress(0.5, 'half');
      if (call.localOutput)
        return {
          output: call.localOutput,
          info: fakeLayer({ name: 'out', kind: 'vector', source: call.localOutput }).info,
          featureCount: 100,
          notes: ['measured on the spheroid'],
        };
      return { schema: outputSchema!, table: `${call.outputName}_2`, featureCount: 100, notes: ['measured on the spheroid'] };
    },
    tables: async () => ({ connections: [] }),
    query: async () => {
      throw new Error('unused');
    },
  };
  return { handle, calls };
}
const worker = (req: { output: string }) => ({ output: req.output, featureCount: 100, notes: ['worker'] });

describe('processing_run on PostGIS layers', () => {
  test('all inputs in one database with a results schema: runs there, the output is a new table loaded as a layer', async () => {
    const pg = postgis('results');
    const { prepared, request, result } = await runAlgorithmHarness(LAYERS, worker, pg.handle).run({
      algorithm: 'buffer',
      params: { input: 'counties', distance: 500 },
    });
    assert.equal(request, undefined, 'nothing reached the GIS worker');
    assert.equal(prepared.args.output_path, 'postgis://office|layername=results.counties_buffer');
    assert.match(String(prepared.preview?.runs_in), /PostGIS database of connection 'office'/);
    assert.equal(pg.calls.length, 1);
    assert.deepEqual(pg.calls[0]!.tables, [{ schema: 'public', table: 'counties' }]);
    assert.equal(pg.calls[0]!.params.input, undefined, 'layer params become tables, not params');
    assert.equal(pg.calls[0]!.params.distance, 500);
    assert.equal(result.output, 'postgis://office|layername=results.counties_buffer_2');
    assert.deepEqual(result.load_layers, [{ path: 'postgis://office|layername=results.counties_buffer_2', name: 'counties_buffer' }]);
    assert.match(String((result.notes as string[])[0]), /inside the PostGIS database: the result is the table results\.counties_buffer_2/);
  });

  test('two tables of the same database (count points) run there, in layerParams order', async () => {
    const pg = postgis('results');
    await runAlgorithmHarness(LAYERS, worker, pg.handle).run({
      algorithm: 'count_points_in_polygons',
      params: { input: 'counties', points: 'towns' },
    });
    assert.deepEqual(pg.calls[0]!.tables, [
      { schema: 'public', table: 'counties' },
      { schema: 'public', table: 'towns' },
    ]);
  });

  test('no results schema: runs in the database all the same, the result comes back as a local GeoPackage layer', async () => {
    const pg = postgis(null);
    const { prepared, request, result } = await runAlgorithmHarness(LAYERS, worker, pg.handle).run({
      algorithm: 'buffer',
      params: { input: 'counties', distance: 500 },
    });
    assert.equal(request, undefined, 'nothing reached the GIS worker');
    const path = String(prepared.args.output_path);
    assert.match(path, /counties_buffer\.gpkg$/);
    assert.equal(prepared.preview?.output, path);
    assert.match(String(prepared.preview?.runs_in), /PostGIS database of connection 'office'/);
    assert.match(String(prepared.preview?.note), /nothing is written to the server.*comes back as the local layer .*\.gpkg/);
    assert.equal(prepared.preview?.output_table, undefined);
    assert.equal(pg.calls[0]!.localOutput, `${path}|layername=counties_buffer`);
    assert.equal(result.output, `${path}|layername=counties_buffer`);
    assert.equal((result.load_layers as { path: string }[])[0]!.path, `${path}|layername=counties_buffer`);
    assert.match(String((result.notes as string[])[0]), /^Ran inside the PostGIS database .*came back as the local layer/);
  });

  test('mixed inputs, another connection, no SQL form: the worker runs it and says why', async () => {
    for (const [schema, algorithm, params, why] of [
      ['results', 'count_points_in_polygons', { input: 'counties', points: 'rivers' }, /not all tables of one PostGIS connection/],
      ['results', 'clip', { input: 'counties', overlay: 'parks' }, /not all tables of one PostGIS connection/],
      ['results', 'buffer', { input: 'rivers', distance: 5 }, /'archive' has no schema for results/],
      ['results', 'centroids', { input: 'counties' }, /centroids has no form that runs inside PostGIS yet/],
    ] as const) {
      const pg = postgis(schema);
      const { prepared, request, result } = await runAlgorithmHarness(LAYERS, worker, pg.handle).run({ algorithm, params });
      assert.equal(pg.calls.length, 0, algorithm);
      assert.ok(request, `${algorithm} reached the worker`);
      assert.match(String(prepared.preview?.note), why);
      assert.match(String((result.notes as string[])[0]), why);
      assert.match(String(prepared.args.output_path), /\.gpkg$/);
    }
  });

  test('local inputs only: no note, as before', async () => {
    const { prepared, result } = await runAlgorithmHarness(LAYERS, worker).run({
      algorithm: 'buffer',
      params: { input: 'parks', distance: 5 },
    });
    assert.equal(prepared.preview?.note, undefined);
    assert.deepEqual(result.notes, ['worker']);
  });
});
