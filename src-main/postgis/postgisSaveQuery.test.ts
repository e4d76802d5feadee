import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { join } from 'node:path';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { fixtures, scriptedToolCall, startApp } from '../composition/testApp.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';
import { pgClusterSuite, saveTestConnection } from './testing/pgTestSuite.js';

/**
 * `inspect_save_query` with a connection (issue 16): a server query's whole result kept as a
 * local GeoPackage layer, run read-only — a function that writes fails even though the SQL
 * check cannot see inside it.
 */
const pg = pgClusterSuite({
  ncGpkg: join(fixtures, 'nc.gpkg'),
  points: false,
  setupSql: `CREATE TABLE audit_log (at timestamptz);
    CREATE FUNCTION mw_note() RETURNS int LANGUAGE sql AS $$ INSERT INTO audit_log VALUES (now()) RETURNING 1 $$;`,
});
const need = (t: TestContext) => pg.need(t);
let app: Awaited<ReturnType<typeof startApp>>;
let conn: PgConnectionListed;
after(async () => {
  await app?.services.close();
});

let model: ScriptedModelServer;
/** The model asks for inspect_save_query on the connection; the person approves; the tool's result comes back. */
const saveQuery = (sql: string, name: string, approve = true) =>
  scriptedToolCall<{ output: string; feature_count: number }>(
    app,
    model,
    { name: 'inspect_save_query', arguments: { sql, name, connection: conn.id } },
    { approve },
  );

describe('inspect_save_query on a PostGIS connection', () => {
  scriptedModelSuite((started) => (model = started));
  before(async () => {
    const c = await pg.ready();
    if (!c) return;
    app = await startApp(model);
    conn = await saveTestConnection(app.services, c);
  });

  it('keeps the whole result of a server query as a local GeoPackage layer, the same rows as the server counts', async (t) => {
    const c = need(t);
    if (!c) return;
    const sql = 'SELECT name, area, ST_Transform(geom, 4326) AS geom FROM nc_counties WHERE area > 0.15 ORDER BY name';
    const { asked, result } = await saveQuery(sql, 'big_counties');
    assert.deepEqual(asked!.network, [`postgres://127.0.0.1:${c.port}/${c.database}`]);
    assert.ok(result.ok, JSON.stringify(result));
    assert.match(result.data!.output, /\.gpkg\|layername=big_counties$/);
    const admin = await c.admin();
    try {
      const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM nc_counties WHERE area > 0.15');
      assert.equal(result.data!.feature_count, rows[0]!.n);
    } finally {
      await admin.end();
    }
    const layer = ((await app.services.invoke('project/get', {})) as { layers: Layer[] }).layers.find((l) => l.name === 'big_counties')!;
    assert.equal(layer.info.crs?.epsg, 4326);
    assert.ok(layer.info.fields.some((f) => f.name === 'name'));
  });

  it('runs read-only: a function that writes fails and nothing is written', async (t) => {
    const c = need(t);
    if (!c) return;
    const { result } = await saveQuery('SELECT mw_note() AS n', 'noted');
    assert.equal(result.ok, false);
    assert.match(result.error!.message, /read-only transaction/);
    const admin = await c.admin();
    try {
      assert.equal((await admin.query('SELECT 1 FROM audit_log')).rowCount, 0);
    } finally {
      await admin.end();
    }
  });

  it('refuses SQL that writes or reaches files before any dialog', async (t) => {
    if (!need(t)) return;
    for (const sql of ['DELETE FROM nc_counties', "SELECT pg_read_file('/etc/passwd')", 'SELECT 1; DROP TABLE nc_counties']) {
      const { result } = await saveQuery(sql, 'nope', false);
      assert.equal(result.ok, false, sql);
      assert.equal(result.error?.code, 'invalid_params', `${sql}: ${JSON.stringify(result.error)}`);
    }
  });
});
