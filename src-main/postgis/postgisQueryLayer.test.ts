import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import Protobuf from 'pbf';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import { pgQueryOf, pgQuerySublayer } from '../../src-shared/domain/pgSource.js';
import { VECTOR_TILE_LAYER } from '../../src-shared/style/vectorTiles.js';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { fixtures, scriptedToolCall, startApp } from '../composition/testApp.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';
import { pgClusterSuite, saveTestConnection } from './testing/pgTestSuite.js';
import { tilePointCounts } from './testing/tilePointCounts.js';

/**
 * `inspect_save_query` kept as a view (issue 16): the project keeps the query
 * (`postgis://id|layername=sql:…`) and every read runs it on the server — GDAL's reads in the
 * worker and the server's own tiles — read-only, checked again wherever it runs.
 */
const pg = pgClusterSuite({
  ncGpkg: join(fixtures, 'nc.gpkg'),
  setupSql: `CREATE TABLE audit_log (at timestamptz);
    CREATE FUNCTION mw_note() RETURNS int LANGUAGE sql AS $$ INSERT INTO audit_log VALUES (now()) RETURNING 1 $$;`,
});
const need = (t: TestContext) => pg.need(t);
let app: Awaited<ReturnType<typeof startApp>>;
let conn: PgConnectionListed;
let model: ScriptedModelServer;
after(async () => {
  await app?.services.close();
});

const layers = async () => ((await app.services.invoke('project/get', {})) as { layers: Layer[] }).layers;
const tileOf = (body: unknown) => new VectorTile(new Protobuf(body as Uint8Array)).layers[VECTOR_TILE_LAYER];

/** The model keeps a server query as a view; the person approves (or is never asked). */
const keepView = (sql: string, name: string, approve = true) =>
  scriptedToolCall<{ output: string; feature_count: number }>(
    app,
    model,
    { name: 'inspect_save_query', arguments: { sql, name, connection: conn.id, keep: 'view' } },
    { approve },
  );

/** A typed source loaded from the interface (a dialog asks); the call's result. */
async function load(source: string): Promise<{ ok: boolean; error?: { message: string } }> {
  const call = app.services.invoke('entries/trigger', { entry: 'layers.load', params: { path: source } }) as Promise<{
    ok: boolean;
    error?: { message: string };
  }>;
  const first = await Promise.race([call.then(() => null), app.approval()]);
  if (first) await app.services.invoke('tools/decide', { approvalId: first.id, decision: 'approve' });
  return call;
}

async function serverCount(sql: string, values: unknown[] = []): Promise<number> {
  const admin = await pg.ready().then((c) => c!.admin());
  try {
    return (await admin.query<{ n: number }>(sql, values)).rows[0]!.n;
  } finally {
    await admin.end();
  }
}

describe('a server query kept as a live layer', () => {
  scriptedModelSuite((started) => (model = started));
  before(async () => {
    const c = await pg.ready();
    if (!c) return;
    app = await startApp(model);
    conn = await saveTestConnection(app.services, c);
  });

  it('keeps the query in the project, writes no file, and follows later changes on the server', async (t) => {
    const c = need(t);
    if (!c) return;
    const sql = 'SELECT name, area, geom FROM nc_counties WHERE area > 0.15';
    const { asked, result } = await keepView(sql, 'big_live');
    assert.deepEqual(asked!.network, [`postgres://127.0.0.1:${c.port}/${c.database}`]);
    assert.match(JSON.stringify(asked!.preview), /live view/);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.data!.output, `postgis://${conn.id}|layername=${pgQuerySublayer(sql)}`);
    const expected = await serverCount('SELECT count(*)::int AS n FROM nc_counties WHERE area > 0.15');
    assert.equal(result.data!.feature_count, expected);

    const layer = (await layers()).find((l) => l.name === 'big_live')!;
    assert.equal(layer.source, `postgis://${conn.id}`);
    assert.equal(pgQueryOf(layer.sublayer!), sql);
    assert.equal(layer.info.crs?.epsg, 4267);
    assert.deepEqual(
      layer.info.fields.map((f) => f.name),
      ['name', 'area'],
    );
    const read = async () => {
      const geo = await app.services.serveData(`data/layers/${layer.id}.geojson`);
      assert.equal(geo.status, 200);
      return (JSON.parse(String(geo.body)) as { features: { properties: { name: string } }[] }).features.map((f) => f.properties.name);
    };
    assert.equal((await read()).length, expected);

    // Live: a county made larger on the server appears at the next read, no reload.
    const admin = await c.admin();
    try {
      await admin.query(`UPDATE nc_counties SET area = 0.5 WHERE name = 'Ashe'`);
      assert.ok((await read()).includes('Ashe'));
    } finally {
      await admin.query(`UPDATE nc_counties SET area = 0.114 WHERE name = 'Ashe'`);
      await admin.end();
    }
  });

  it('draws a large query from tiles the server makes, over the query', async (t) => {
    const c = need(t);
    if (!c) return;
    const sql = 'SELECT id, value, geom FROM points_1m WHERE id % 2 = 0';
    const { result } = await keepView(sql, 'half_points');
    assert.ok(result.ok, JSON.stringify(result));
    const layer = (await layers()).find((l) => l.name === 'half_points')!;
    const all = await serverCount('SELECT count(*)::int AS n FROM points_1m WHERE id % 2 = 0');
    assert.equal(layer.info.featureCount, all);
    assert.ok(all > 100_000, `${all} rows: a layer for server tiles`);

    const wide = await app.services.serveData(`tiles/${layer.id}/v-x/5/8/12.pbf`);
    assert.equal(wide.status, 200);
    // A query is never sampled (TABLESAMPLE takes tables): zoomed out it is thinned on the grid.
    assert.match(wide.headers?.['X-Mapwright-Tile'] ?? '', /^server; method=grid; kept=\d+;/);

    const [z, x, y] = [13, 2262, 3221];
    const close = await app.services.serveData(`tiles/${layer.id}/v-x/${z}/${x}/${y}.pbf`);
    assert.match(close.headers?.['X-Mapwright-Tile'] ?? '', /^server; method=all;/);
    const admin = await pg.ready().then((c) => c!.admin());
    try {
      const under = await tilePointCounts(admin, 'id % 2 = 0', [z, x, y]);
      const drawn = tileOf(close.body)?.length ?? 0;
      assert.ok(under.fewest > 0);
      assert.ok(drawn >= under.fewest && drawn <= under.most, `${drawn} drawn, ${under.fewest}–${under.most} under the tile`);
    } finally {
      await admin.end();
    }
  });

  it('runs read-only wherever it is read: a function that writes fails and writes nothing', async (t) => {
    if (!need(t)) return;
    const { result } = await keepView('SELECT mw_note() AS n, geom FROM nc_counties', 'noted');
    assert.equal(result.ok, false);
    assert.match(result.error!.message, /read-only/);
    // The same query slipped into a source string by hand: the worker's read fails the same way.
    const loaded = await load(`postgis://${conn.id}|layername=${pgQuerySublayer('SELECT mw_note() AS n, geom FROM nc_counties')}`);
    assert.equal(loaded.ok, false);
    assert.equal(await serverCount('SELECT count(*)::int AS n FROM audit_log'), 0);
  });

  it('refuses hostile query sources before anything runs on the server', async (t) => {
    if (!need(t)) return;
    const before = await serverCount('SELECT count(*)::int AS n FROM nc_counties');
    for (const sublayer of [
      'sql:DELETE FROM nc_counties',
      'sql:SELECT 1%3B DROP TABLE nc_counties',
      "sql:SELECT pg_read_file('/etc/passwd') AS t",
      'sql:SELECT * FROM nc_counties %ZZ',
      "sql:SELECT * FROM dblink('host=example.com', 'SELECT 1') AS t(x int)",
    ]) {
      const r = await load(`postgis://${conn.id}|layername=${sublayer}`);
      assert.equal(r.ok, false, sublayer);
    }
    assert.equal(await serverCount('SELECT count(*)::int AS n FROM nc_counties'), before);
    assert.ok(!(await layers()).some((l) => /DELETE|DROP|pg_read_file|dblink/i.test(l.sublayer ?? '')));
  });

  it('keep is refused without a connection (a project query is always a copy)', async (t) => {
    if (!need(t)) return;
    const { result } = await scriptedToolCall(
      app,
      model,
      { name: 'inspect_save_query', arguments: { sql: 'SELECT 1', name: 'x', keep: 'view' } },
      { approve: false },
    );
    assert.equal(result.error?.code, 'invalid_params');
  });
});
