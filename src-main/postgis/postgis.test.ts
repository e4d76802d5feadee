import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import type { PgBrowseResult, PgConnectionSpec, PgSpatialTable } from '../../src-shared/domain/pgConnection.js';
import { fixtures, startApp } from '../composition/testApp.js';
import { appSettingsPath } from '../settings/appSettingsDb.js';
import { browsePg } from './pgBrowse.js';
import { connectPg } from './pgClient.js';
import { testPgConnection } from './pgTestConnection.js';
import { startPgTestCluster, type PgTestCluster } from './testing/pgTestCluster.js';
import { testConnectionSpec } from './testing/pgTestSuite.js';

/**
 * Against a real PostgreSQL + PostGIS started for this file (testing/pgTestCluster.ts). Without
 * the server binaries every test skips and says why.
 */
let cluster: PgTestCluster | null = null;
let skipReason = '';
const NC = join(fixtures, 'nc.gpkg');

before(async () => {
  const started = performance.now();
  const result = await startPgTestCluster({ ncGpkg: NC });
  if ('skip' in result) {
    skipReason = `PostGIS tests skipped: ${result.skip}`;
    console.log(skipReason);
    return;
  }
  cluster = result;
  const total = Math.round((performance.now() - started) / 100) / 10;
  console.log(`PostGIS test cluster ${cluster.version} on 127.0.0.1:${cluster.port}: ready in ${total} s`, cluster.timings);
  const admin = await cluster.admin();
  try {
    // A view, a geography column, a raster column and a second schema, for browse.
    await admin.query(`CREATE VIEW nc_big AS SELECT * FROM nc_counties WHERE area > 0.15;
      CREATE TABLE places (id serial PRIMARY KEY, name text, geog geography(Point, 4326));
      INSERT INTO places (name, geog) VALUES ('Raleigh', 'SRID=4326;POINT(-78.64 35.78)');
      CREATE EXTENSION postgis_raster;
      CREATE TABLE dem (rid serial PRIMARY KEY, rast raster);
      CREATE SCHEMA "Odd schema";
      CREATE TABLE "Odd schema"."odd ""table""" (id int, geom geometry(LineString, 3358));
      CREATE SCHEMA empty_schema;`);
  } finally {
    await admin.end();
  }
});
after(async () => {
  await cluster?.stop();
});

function need(t: TestContext): PgTestCluster | null {
  if (!cluster) t.skip(skipReason || 'no test cluster');
  return cluster;
}
// `prefer` here: TLS is tried first and the server without it is connected to plainly.
const specOf = (c: PgTestCluster, over: Partial<PgConnectionSpec> = {}): PgConnectionSpec =>
  testConnectionSpec(c, { sslmode: 'prefer', ...over });

describe('PostGIS connections against a real server', () => {
  it('reports the server and PostGIS versions', async (t) => {
    const c = need(t);
    if (!c) return;
    const report = await testPgConnection(specOf(c), c.password);
    assert.equal(report.ok, true, JSON.stringify(report));
    if (!report.ok) return;
    assert.match(report.server, new RegExp(`^${c.version}\\.\\d+`));
    assert.match(report.postgis, /^3\.\d+/);
    assert.equal(report.ssl, false, "sslmode 'prefer' falls back to plain on a server without TLS");
  });

  it('says why it cannot connect: auth, no password, port, database, TLS, PostGIS', async (t) => {
    const c = need(t);
    if (!c) return;
    const wrong = await testPgConnection(specOf(c), 'not-the-password');
    assert.deepEqual([wrong.ok, !wrong.ok && wrong.code], [false, 'auth_failed']);
    assert.doesNotMatch(JSON.stringify(wrong), /not-the-password/);

    const none = await testPgConnection(specOf(c), null);
    assert.equal(!none.ok && none.code, 'auth_failed');
    assert.match(!none.ok ? none.reason : '', /none is stored/);

    // The port just below is not ours; nothing listens there in a test run.
    const closedPort = c.port === 1 ? 2 : c.port - 1;
    const unreachable = await testPgConnection(specOf(c, { port: closedPort }), c.password, { connectTimeoutMs: 3000 });
    assert.equal(!unreachable.ok && unreachable.code, 'unreachable', JSON.stringify(unreachable));

    const missing = await testPgConnection(specOf(c, { database: 'no_such_db' }), c.password);
    assert.equal(!missing.ok && missing.code, 'database_missing');
    assert.match(!missing.ok ? missing.reason : '', /"no_such_db"/);

    const tls = await testPgConnection(specOf(c, { sslmode: 'require' }), c.password);
    assert.equal(!tls.ok && tls.code, 'ssl', JSON.stringify(tls));

    const admin = await c.admin('postgres');
    await admin.query('CREATE DATABASE plain_db');
    await admin.end();
    const plain = await testPgConnection(specOf(c, { database: 'plain_db' }), c.password);
    assert.equal(!plain.ok && plain.code, 'postgis_missing');
    assert.match(
      !plain.ok ? plain.reason : '',
      /PostgreSQL 15\.\d+ answers, but PostGIS is not installed in database "plain_db" \(version 3\.\d/,
    );
  });

  it('connects as mapwright with a statement time-out', async (t) => {
    const c = need(t);
    if (!c) return;
    const client = await connectPg(specOf(c), c.password, { statementTimeoutMs: 1500 });
    try {
      const { rows } = await client.query<{ app: string; timeout: string }>(
        "SELECT current_setting('application_name') AS app, current_setting('statement_timeout') AS timeout",
      );
      assert.deepEqual(rows[0], { app: 'mapwright', timeout: '1500ms' });
      await assert.rejects(client.query('SELECT pg_sleep(5)'), /statement timeout/);
    } finally {
      await client.end();
    }
  });

  it('connects to exactly the database and user named, whatever characters they hold', async (t) => {
    const c = need(t);
    if (!c) return;
    // Strings that would redirect a concatenated connection string: quotes, ;, spaces, options=.
    const hostile = [
      `${c.database}' options='-c search_path=evil`,
      `${c.database} options=-csearch_path=evil`,
      `${c.database}; dbname=postgres`,
      `dbname=${c.database}`,
    ];
    for (const database of hostile) {
      const report = await testPgConnection(specOf(c, { database }), c.password);
      assert.equal(!report.ok && report.code, 'database_missing', `${database}: ${JSON.stringify(report)}`);
      assert.ok(!report.ok && report.reason.includes(JSON.stringify(database)), 'the reason names the exact database');
    }
    for (const user of [`${c.user}' dbname='postgres`, `${c.user} options=-cstatement_timeout=0`, `${c.user};`]) {
      const report = await testPgConnection(specOf(c, { user }), c.password);
      assert.equal(!report.ok && report.code, 'auth_failed', `${user}: ${JSON.stringify(report)}`);
    }
    // And such a name, when it really exists, is what the session is in.
    const odd = `it's; a db options=-c x`;
    const admin = await c.admin('postgres');
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(odd)}`);
    await admin.end();
    const client = await connectPg(specOf(c, { database: odd }), c.password);
    try {
      const { rows } = await client.query<{ db: string; path: string }>(
        "SELECT current_database() AS db, current_setting('search_path') AS path",
      );
      assert.deepEqual(rows[0], { db: odd, path: '"$user", public' });
    } finally {
      await client.end();
    }
  });
});

describe('browsing a PostGIS database', () => {
  let result: PgBrowseResult | null = null;
  const table = (schema: string, name: string): PgSpatialTable => {
    assert.ok(result?.ok);
    const found = result.schemas.find((s) => s.name === schema)?.tables.find((tb) => tb.name === name);
    assert.ok(found, `${schema}.${name} listed`);
    return found;
  };

  it('lists schemas, and tables and views with geometry, geography and raster columns', async (t) => {
    const c = need(t);
    if (!c) return;
    const started = performance.now();
    result = await browsePg(specOf(c), c.password);
    console.log(`browse took ${Math.round(performance.now() - started)} ms`);
    assert.equal(result.ok, true, JSON.stringify(result));
    if (!result.ok) return;
    assert.deepEqual(
      result.schemas.map((s) => s.name),
      ['Odd schema', 'empty_schema', 'public'],
    );
    assert.deepEqual(result.schemas.find((s) => s.name === 'empty_schema')?.tables, []);
    assert.deepEqual(
      result.schemas.find((s) => s.name === 'public')?.tables.map((tb) => `${tb.name}:${tb.kind}`),
      ['dem:table', 'nc_big:view', 'nc_counties:table', 'places:table', 'points_1m:table'],
    );
    assert.deepEqual(table('Odd schema', 'odd "table"').columns, [
      { name: 'geom', kind: 'geometry', geometryType: 'LINESTRING', srid: 3358, dims: 2 },
    ]);
    assert.deepEqual(table('public', 'places').columns, [{ name: 'geog', kind: 'geography', geometryType: 'Point', srid: 4326, dims: 2 }]);
    assert.deepEqual(
      table('public', 'dem').columns.map((col) => [col.name, col.kind, col.geometryType]),
      [['rast', 'raster', null]],
    );
  });

  it('keeps the SRID GDAL reports for the NC GeoPackage, and counts a small table exactly', (t) => {
    if (!need(t) || !result?.ok) return;
    const gpkg = new Database(NC, { readonly: true });
    const expected = gpkg
      .prepare('SELECT s.organization_coordsys_id AS srid FROM gpkg_geometry_columns g JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id')
      .get() as { srid: number };
    gpkg.close();
    assert.equal(expected.srid, 4267, 'the fixture is NAD27');
    const nc = table('public', 'nc_counties');
    assert.deepEqual(nc.columns, [{ name: 'geom', kind: 'geometry', geometryType: 'MULTIPOLYGON', srid: expected.srid, dims: 2 }]);
    // ogr2ogr does not ANALYZE: reltuples is -1, so the small table was counted.
    assert.deepEqual([nc.rows, nc.rowsExact], [100, true]);
    // A view is never counted: its query could take any time.
    assert.deepEqual([table('public', 'nc_big').rows, table('public', 'nc_big').rowsExact], [null, false]);
  });

  it("estimates the million points from the planner's statistics", (t) => {
    if (!need(t) || !result?.ok) return;
    const points = table('public', 'points_1m');
    assert.equal(points.rowsExact, false);
    assert.ok(points.rows !== null && Math.abs(points.rows - 1_000_000) <= 100_000, `estimate ${points.rows}`);
    assert.deepEqual(points.columns, [{ name: 'geom', kind: 'geometry', geometryType: 'POINT', srid: 4267, dims: 2 }]);
  });
});

describe('the bridge methods, through the app', () => {
  it('saves a connection with its password apart, tests, browses and deletes it', async (t) => {
    const c = need(t);
    if (!c) return;
    const home = mkdtempSync(join(tmpdir(), 'mapwright-pgapp-'));
    t.after(() => rmSync(home, { recursive: true, force: true }));
    const { services } = await startApp(null, home);
    const { connection } = (await services.invoke('postgis/save-connection', {
      connection: { name: 'Test', host: c.host, port: c.port, database: c.database, user: c.user, sslmode: 'disable' },
      password: c.password,
    })) as { connection: { id: string; hasPassword: boolean } };
    assert.equal(connection.hasPassword, true);
    const listed = await services.invoke('postgis/connections', {});
    assert.doesNotMatch(JSON.stringify(listed), new RegExp(c.password), 'the password never comes back');

    const report = (await services.invoke('postgis/test-connection', { id: connection.id })) as { ok: boolean; postgis?: string };
    assert.equal(report.ok, true, JSON.stringify(report));
    const browsed = (await services.invoke('postgis/browse', { id: connection.id })) as PgBrowseResult;
    assert.ok(browsed.ok && browsed.schemas.some((s) => s.tables.some((tb) => tb.name === 'nc_counties')));
    await assert.rejects(services.invoke('postgis/test-connection', { id: "x'; --" }), /Invalid parameters/);

    await services.close();
    assert.doesNotMatch(readFileSync(appSettingsPath(home), 'latin1'), new RegExp(c.password));
    assert.match(readFileSync(join(home, 'secrets', 'model-keys.json'), 'utf8'), new RegExp(`"postgis:${connection.id}"`));

    // Deleting (in a fresh app on the same home) removes the spec and its password.
    const again = await startApp(null, home);
    assert.deepEqual(await again.services.invoke('postgis/delete-connection', { id: connection.id }), { deleted: true });
    const gone = (await again.services.invoke('postgis/test-connection', { id: connection.id })) as { ok: boolean; code?: string };
    assert.equal(gone.code, 'unknown_connection');
    assert.doesNotMatch(readFileSync(join(home, 'secrets', 'model-keys.json'), 'utf8'), /postgis:/);
  });
});
