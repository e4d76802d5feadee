/**
 * inspect_sql, inspect_save_query and inspect_query_features refuse, in `prepare`, SQL that
 * would read files or reach the network — as invalid_params naming the function or table, so
 * the model can act on it — and hand the worker only checked SQL. Fake handles: what is checked
 * is what is refused before the worker and what reaches it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LayerKind } from '../../src-shared/domain/layer.js';
import type { GdalHandle, PostgisHandle } from '../../src-shared/tools/handles.js';
import { queryFeatures } from './queryFeatures.js';
import { saveQuery } from './saveQuery.js';
import { sqlQuery } from './sqlQuery.js';
import { expectRefusal } from '../expectRefusal.js';
import { fakeLayer, fakeProject } from '../toolTestFakes.js';

const WORLD: [number, number, number, number] = [-180, -90, 180, 83.6];
const layer = (name: string, kind: LayerKind, source: string, fields: string[]) =>
  fakeLayer({
    name,
    id: `id_${name}`,
    kind,
    source,
    fields,
    info: {
      driver: 'GPKG',
      crs: { epsg: 4326, name: 'WGS 84', geographic: true },
      extent: WORLD,
      extent4326: WORLD,
      geometryType: 'MultiPolygon',
      featureCount: 100,
    },
  });

const LAYERS = [layer('nc', 'vector', '/data/nc.gpkg', ['NAME', 'AREA']), layer('world bank', 'table', '/data/wb.csv', ['iso_a2', 'HDI'])];

function harness() {
  const calls: { fn: string; args: Record<string, unknown> }[] = [];
  const project = fakeProject(LAYERS);
  const gdal = {
    async call(fn: string, args: Record<string, unknown>) {
      calls.push({ fn, args });
      if (fn === 'inspect.sql')
        return { columns: ['n'], rows: [{ n: 1 }], returned: 1, total_rows: 1, truncated: false, truncated_by: null, geometry: 'none' };
      if (fn === 'inspect.save_query') return { output: String(args.output), featureCount: 1, notes: [] };
      return {
        type: 'FeatureCollection',
        features: [],
        total_count: 0,
        returned: 0,
        truncated: false,
        truncated_by: null,
        crs: 'EPSG:4326',
      };
    },
  } as unknown as GdalHandle;
  const served: { connectionId: string; sql: string; opts: Parameters<PostgisHandle['query']>[2] }[] = [];
  const unused = () => {
    throw new Error('not used by inspect.sql');
  };
  const postgis: PostgisHandle = {
    pushdownPlan: unused,
    pushdown: unused,
    tables: unused,
    async query(connectionId, sql, opts) {
      served.push({ connectionId, sql, opts });
      return { columns: ['n'], rows: [{ n: 2 }], returned: 1, total_rows: 1, truncated: false, truncated_by: null, geometry: 'none' };
    },
  };
  const ctx = { handles: { project, gdal, postgis }, caller: 'model' as const, signal: new AbortController().signal, progress: () => {} };
  return { ctx, calls, served };
}

describe('the SQL tools refuse in prepare what would read files or reach the network', () => {
  test('inspect_sql: functions, datasources and unknown tables come back as invalid_params naming them', async () => {
    const { ctx, calls } = harness();
    const cases: [string, RegExp][] = [
      ["SELECT ogr_geocode('Paris')", /ogr_geocode\(\) is not allowed: GDAL's ogr_\* functions/],
      ['SELECT "OGR_DATASOURCE_LOAD_LAYERS" /* x */ (\'/vsicurl/http://h/x.gpkg\')', /OGR_DATASOURCE_LOAD_LAYERS\(\) is not allowed/],
      ['SELECT * FROM "/vsicurl/http://h/x.geojson"."x"', /names another database or datasource.*Tables: "nc", "world bank"/],
      ['SELECT * FROM nc /* FROM "/home/me/app.sqlite"."settings" */', /comment/],
      ['SELECT * FROM secrets', /No table secrets/],
      ["ATTACH '/home/me/app.sqlite' AS app", /Only a SELECT/],
    ];
    for (const [sql, why] of cases) {
      const err = await expectRefusal(sqlQuery.prepare!(sqlQuery.input.parse({ sql }), ctx));
      assert.equal(err.code, 'invalid_params', sql);
      assert.match(err.message, why, sql);
      assert.match(err.hint ?? '', /inspect_save_query/);
    }
    assert.equal(calls.length, 0, 'nothing reached the worker');
  });

  test('inspect_sql: a valid query runs without its comments, with the project tables, and the worker gets the checked text', async () => {
    const { ctx, calls } = harness();
    const parsed = sqlQuery.input.parse({ sql: 'SELECT COUNT(*) AS n -- count\nFROM "NC" JOIN "world bank" b ON 1;' });
    const prepared = await sqlQuery.prepare!(parsed, ctx);
    assert.equal(prepared.args.sql, 'SELECT COUNT(*) AS n  \nFROM "NC" JOIN "world bank" b ON 1');
    await sqlQuery.execute(prepared.args, ctx);
    assert.equal(calls[0]!.fn, 'inspect.sql');
    assert.equal(calls[0]!.args.sql, prepared.args.sql);
    assert.deepEqual(calls[0]!.args.tables, [
      { name: 'nc', source: '/data/nc.gpkg' },
      { name: 'world bank', source: '/data/wb.csv' },
    ]);
  });

  test('inspect_save_query: refused before the approval dialog; a valid query is previewed as it will run', async () => {
    const { ctx, calls } = harness();
    const err = await expectRefusal(
      saveQuery.prepare!(saveQuery.input.parse({ sql: "SELECT ExportSHP('nc', 'geom', '/tmp/x', 'UTF-8') FROM nc", name: 'x' }), ctx),
    );
    assert.equal(err.code, 'invalid_params');
    assert.match(err.message, /ExportSHP\(\) is not allowed: it imports or exports files/);
    const prepared = await saveQuery.prepare!(
      saveQuery.input.parse({ sql: 'SELECT NAME, ST_Buffer(geom, 0.1) AS geom FROM nc /* buffered */', name: 'buffered' }),
      ctx,
    );
    assert.deepEqual(prepared.preview, {
      sql: 'SELECT NAME, ST_Buffer(geom, 0.1) AS geom FROM nc',
      output: '/outputs/buffered.gpkg',
      layer: 'buffered',
    });
    assert.equal(calls.length, 0);
  });

  test('inspect_query_features: a where calling a function outside the allow-list is invalid_params naming it', async () => {
    const { ctx, calls } = harness();
    const cases: [string, RegExp][] = [
      ['ogr_geocode(NAME) IS NULL', /Invalid where: function ogr_geocode\(\) is not allowed/],
      ['"ogr_datasource_load_layers"(\'/vsicurl/http://h/x.gpkg\') IS NULL', /function ogr_datasource_load_layers\(\) is not allowed/],
      ["gdal_get_layer_pixel_value('x', 1, 'pixel', 0, 0) > 0", /gdal_get_layer_pixel_value\(\) is not allowed/],
      ['NAME IN (SELECT name FROM sqlite_master)', /'SELECT' is not allowed/],
      ['AREA > 1 -- c', /comments are not allowed/],
    ];
    for (const [where, why] of cases) {
      const err = await expectRefusal(queryFeatures.prepare!(queryFeatures.input.parse({ layer: 'nc', where }), ctx));
      assert.equal(err.code, 'invalid_params', where);
      assert.match(err.message, why, where);
      assert.match(err.hint ?? '', /fields: NAME, AREA/);
    }
    const ok = await queryFeatures.prepare!(queryFeatures.input.parse({ layer: 'nc', where: "abs(AREA) > 0.1 AND NAME LIKE 'A%'" }), ctx);
    assert.equal(ok.args.where, "abs(AREA) > 0.1 AND NAME LIKE 'A%'");
    assert.equal(calls.length, 0);
  });
});

describe('inspect_sql with a connection: the server’s dialect, checked for a server, run by main', () => {
  test('refused in prepare: a second statement, a write, a function reaching files or the network', async () => {
    const { ctx, calls, served } = harness();
    const cases: [string, RegExp][] = [
      ['SELECT 1; DROP TABLE roads', /second statement/],
      ['WITH d AS (DELETE FROM roads RETURNING *) SELECT * FROM d', /DELETE changes data/],
      ["SELECT pg_read_file('/etc/passwd')", /pg_read_file\(\) is not allowed/],
      ["SELECT * FROM dblink('host=evil', 'select 1') AS t(x int)", /dblink/],
    ];
    for (const [sql, why] of cases) {
      const err = await expectRefusal(sqlQuery.prepare!(sqlQuery.input.parse({ sql, connection: 'office' }), ctx));
      assert.equal(err.code, 'invalid_params', sql);
      assert.match(err.message, why, sql);
      assert.match(err.hint ?? '', /PostgreSQL\/PostGIS/);
    }
    assert.equal(calls.length + served.length, 0, 'nothing ran');
  });

  test('PostgreSQL SQL the local guard would refuse passes, and goes to the postgis handle, not the worker', async () => {
    const { ctx, calls, served } = harness();
    const sql = 'SELECT name, ST_Area(geom::geography) FROM public.roads /* server table */ LIMIT 3;';
    const prepared = await sqlQuery.prepare!(sqlQuery.input.parse({ sql, connection: 'office', include_geometry: true }), ctx);
    assert.equal(prepared.args.sql, 'SELECT name, ST_Area(geom::geography) FROM public.roads                    LIMIT 3');
    const answer = await sqlQuery.execute(prepared.args, ctx);
    assert.deepEqual((answer as { rows: unknown[] }).rows, [{ n: 2 }]);
    assert.equal(calls.length, 0);
    assert.deepEqual(
      served.map((s) => [s.connectionId, s.sql, s.opts.limit, s.opts.includeGeometry, s.opts.maxChars]),
      [['office', prepared.args.sql, 100, true, 60_000]],
    );
    assert.equal(sqlQuery.summary(prepared.args).startsWith('SQL on office: '), true);
  });
});
