/**
 * layers_export_postgis's prepare (issue 16) over fake handles: the defaults it fills (the
 * only connection, its results schema, the layer name as a table), the raise to destructive
 * with overwrite, and what it refuses before anything reaches the server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { GdalHandle, PgTablesAnswer, PostgisHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { fakeLayer, fakeProject } from '../toolTestFakes.js';
import { exportPostgis, tableNameFor } from './exportPostgis.js';

const NAD27 = { epsg: 4267, name: 'NAD27', geographic: true };
const LAYERS: Layer[] = [
  fakeLayer({ name: 'NC Counties (1974)', id: 'l1', kind: 'vector', source: '/data/nc.gpkg', info: { featureCount: 100, crs: NAD27 } }),
  fakeLayer({ name: 'dem', kind: 'raster', source: '/data/dem.tif' }),
  fakeLayer({ name: 'stats', kind: 'table', source: '/data/stats.csv' }),
  fakeLayer({ name: 'roads', kind: 'vector', source: 'postgis://office', sublayer: 'results.roads' }),
];

type Conn = PgTablesAnswer['connections'][number];
const OFFICE: Conn = { id: 'office', name: 'Office', server: 'postgres://db:5432/gis', results_schema: 'results' };
const ARCHIVE: Conn = { id: 'archive', name: 'Archive', server: 'postgres://old:5432/gis', results_schema: null };

function harness(connections: Conn[]) {
  const postgis: PostgisHandle = {
    tables: async (id) => {
      assert.equal(id, null, 'prepare only lists the saved connections (it reaches no server)');
      return { connections };
    },
    query: async () => assert.fail('no query'),
    pushdownPlan: () => assert.fail('no push-down'),
    pushdown: async () => assert.fail('no push-down'),
  };
  const calls: unknown[] = [];
  const gdal = {
    call: async (fn: string, args: { schema: string; table: string }) => {
      calls.push({ fn, args });
      return { schema: args.schema, table: args.table, featureCount: 100 };
    },
  } as unknown as GdalHandle;
  const ctx = { handles: { project: fakeProject(LAYERS), gdal, postgis }, caller: 'model' as const, signal: new AbortController().signal };
  return {
    calls,
    prepare: (raw: Record<string, unknown>) => exportPostgis.prepare!(exportPostgis.input.parse(raw), ctx),
    execute: (args: Parameters<typeof exportPostgis.execute>[0]) => exportPostgis.execute(args, { ...ctx, progress: () => {} }),
  };
}

async function refused(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => err instanceof ToolFailure && err.code === 'invalid_params' && message.test(err.message));
}

describe('layers_export_postgis prepare', () => {
  test('defaults: the only connection, its results schema, the layer name made a plain table name; a write', async () => {
    const h = harness([OFFICE]);
    const prepared = await h.prepare({ layer: 'NC Counties (1974)' });
    assert.deepEqual(prepared.args, {
      layer: 'NC Counties (1974)',
      connection: 'office',
      schema: 'results',
      table: 'nc_counties_1974',
      overwrite: false,
    });
    assert.equal(prepared.escalate, undefined);
    assert.deepEqual(prepared.preview, {
      layer: 'NC Counties (1974)',
      target: 'postgis://office|layername=results.nc_counties_1974',
      features: 100,
      crs: 'EPSG:4267',
    });
    const result = await h.execute(prepared.args);
    assert.deepEqual(result, {
      table: 'results.nc_counties_1974',
      source: 'postgis://office|layername=results.nc_counties_1974',
      feature_count: 100,
    });
    assert.deepEqual(h.calls, [
      {
        fn: 'postgis.export',
        args: { source: '/data/nc.gpkg', connectionId: 'office', schema: 'results', table: 'nc_counties_1974', overwrite: false },
      },
    ]);
    assert.equal(exportPostgis.notice!(result), 'Exported to the PostGIS table results.nc_counties_1974 (100 features)');
  });

  test('overwrite raises the call to destructive and the preview says what it replaces', async () => {
    const prepared = await harness([OFFICE]).prepare({ layer: 'l1', table: 'nc', overwrite: true });
    assert.equal(prepared.escalate, 'destructive');
    assert.match(String(prepared.preview?.replaces), /results\.nc/);
  });

  test('names given are kept exactly, hostile ones included', async () => {
    const prepared = await harness([OFFICE]).prepare({ layer: 'l1', schema: `we"ird; sch'ema`, table: `"; DROP TABLE x; --` });
    assert.equal(prepared.args.schema, `we"ird; sch'ema`);
    assert.equal(prepared.args.table, `"; DROP TABLE x; --`);
  });

  test('several connections: one must be named; a connection without a results schema needs schema', async () => {
    await refused(harness([OFFICE, ARCHIVE]).prepare({ layer: 'l1' }), /Name the PostGIS connection/);
    await refused(harness([OFFICE, ARCHIVE]).prepare({ layer: 'l1', connection: 'archive' }), /'archive' has no results schema/);
    const prepared = await harness([OFFICE, ARCHIVE]).prepare({ layer: 'l1', connection: 'archive', schema: 'public' });
    assert.equal(prepared.args.schema, 'public');
    await refused(harness([OFFICE]).prepare({ layer: 'l1', connection: 'nope' }), /no saved PostGIS connection 'nope'/);
  });

  test('refuses rasters, tables without geometry, a table onto itself and names that cannot round-trip', async () => {
    const h = harness([OFFICE]);
    await refused(h.prepare({ layer: 'dem' }), /raster/);
    await refused(h.prepare({ layer: 'stats' }), /no geometry/);
    await refused(h.prepare({ layer: 'roads', table: 'roads' }), /is the table results\.roads itself/);
    await h.prepare({ layer: 'roads', table: 'roads_copy' });
    await refused(h.prepare({ layer: 'l1', table: 'a\nb' }), /control character/);
    await refused(h.prepare({ layer: 'l1', table: 'x'.repeat(64) }), /63 bytes/);
    await refused(h.prepare({ layer: 'l1', table: 'é'.repeat(32) }), /63 bytes/);
    await refused(h.prepare({ layer: 'l1', schema: 'a.b', table: 't' }), /contains '\.'/);
    await refused(h.prepare({ layer: 'l1', table: 'a|b' }), /contains '\|'/);
    await refused(h.prepare({ layer: 'l1', table: ' t' }), /space/);
    await refused(h.prepare({ layer: 'missing' }), /No layer 'missing'/);
  });

  test('table names from layer names', () => {
    assert.equal(tableNameFor('Rivers – Strahler'), 'rivers_strahler');
    assert.equal(tableNameFor('2020 census'), 't_2020_census');
    assert.equal(tableNameFor('Zürich'), 'zurich');
    assert.equal(tableNameFor('***'), 'layer');
    assert.equal(tableNameFor('x'.repeat(100)).length, 63);
  });
});
