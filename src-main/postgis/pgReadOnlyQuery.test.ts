import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { sqlQuery } from '../../tools/inspect/sqlQuery.js';
import { fixtures } from '../composition/testApp.js';
import { ApprovalBroker } from '../tool-host/approvalBroker.js';
import { testHandles } from '../tool-host/testing/testDispatcher.js';
import { ToolDispatcher } from '../tool-host/toolDispatcher.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { pgOrigin } from './pgOrigin.js';
import { PgQueryError, runReadOnlyQuery, type ReadOnlyQueryOptions } from './pgReadOnlyQuery.js';
import { createPostgisHandle } from './postgisHandle.js';
import type { PgTestCluster } from './testing/pgTestCluster.js';
import { pgClusterSuite, testConnectionSpec } from './testing/pgTestSuite.js';

/**
 * `inspect_sql` on a connection against a real PostgreSQL + PostGIS started for this file
 * (testing/pgTestCluster.ts); without the server binaries every test skips and says why.
 */
const READER_PASSWORD = 'reader-pw-123';
const pg = pgClusterSuite({
  ncGpkg: join(fixtures, 'nc.gpkg'),
  points: false,
  setupSql: `
      CREATE TABLE places (id serial PRIMARY KEY, name text, geog geography(Point, 4326), big bigint, price numeric, doc jsonb, raw bytea);
      INSERT INTO places (name, geog, big, price, doc, raw) VALUES
        ('Raleigh', 'SRID=4326;POINT(-78.64 35.78)', 9007199254740993, 12.50, '{"a": [1, 2]}', '\\x000102');
      CREATE TABLE written (x int);
      CREATE FUNCTION write_one() RETURNS int LANGUAGE sql AS 'INSERT INTO written VALUES (1) RETURNING x';
      CREATE TABLE secret (x int);
      CREATE ROLE reader LOGIN PASSWORD '${READER_PASSWORD}';
      GRANT SELECT ON nc_counties, places TO reader;`,
});
const need = (t: TestContext) => pg.need(t);
const specOf = testConnectionSpec;
const OPTS: ReadOnlyQueryOptions = { limit: 100, includeGeometry: false, maxChars: 60_000 };
const query = (c: PgTestCluster, sql: string, opts: Partial<ReadOnlyQueryOptions> = {}) =>
  runReadOnlyQuery(specOf(c), c.password, sql, { ...OPTS, ...opts });

async function failure(promise: Promise<unknown>): Promise<PgQueryError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof PgQueryError) return err;
    throw err;
  }
  throw new Error('expected the query to fail');
}

describe('a read-only query on a PostGIS connection', () => {
  it('answers in the local shape: columns, typed values, geometry omitted unless asked, then as GeoJSON', async (t) => {
    const c = need(t);
    if (!c) return;
    const plain = await query(c, 'SELECT name, big, price, doc, raw, geog, id FROM places');
    assert.deepEqual(plain.columns, ['name', 'big', 'price', 'doc', 'raw', 'id']);
    assert.deepEqual(plain.rows, [{ name: 'Raleigh', big: '9007199254740993', price: 12.5, doc: { a: [1, 2] }, raw: '3 bytes', id: 1 }]);
    assert.equal(plain.geometry, 'omitted: geog (include_geometry: true to see it)');
    assert.deepEqual([plain.returned, plain.total_rows, plain.truncated, plain.truncated_by], [1, 1, false, null]);

    const withGeometry = await query(c, 'SELECT name, ST_Centroid(geom) AS c FROM nc_counties ORDER BY name LIMIT 1', {
      includeGeometry: true,
    });
    assert.deepEqual(withGeometry.columns, ['name', 'c']);
    const point = withGeometry.rows[0]!.c as { type: string; coordinates: number[] };
    assert.equal(point.type, 'Point');
    assert.ok(
      point.coordinates.every((v) => Math.abs(v * 1e6 - Math.round(v * 1e6)) < 1e-6),
      'six decimals',
    );
    assert.match(withGeometry.geometry, /included as GeoJSON.*: c$/);
    assert.deepEqual((await query(c, 'SELECT 1')).geometry, 'none');
  });

  it('PostgreSQL names: duplicate output names stay apart; a geometry-only query keeps its rows', async (t) => {
    const c = need(t);
    if (!c) return;
    const r = await query(c, 'SELECT 1 AS id, 2 AS id, 3');
    assert.deepEqual(r.columns, ['id', 'id_2', '?column?']);
    assert.deepEqual(r.rows, [{ id: 1, id_2: 2, '?column?': 3 }]);
    const geomOnly = await query(c, 'SELECT geom FROM nc_counties LIMIT 2');
    assert.deepEqual([geomOnly.columns, geomOnly.rows], [[], [{}, {}]]);
  });

  it('runs in a READ ONLY transaction with the statement time-out, rolled back', async (t) => {
    const c = need(t);
    if (!c) return;
    const r = await query(c, "SELECT current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS timeout", {
      timeoutMs: 7_000,
    });
    assert.deepEqual(r.rows, [{ ro: 'on', timeout: '7s' }]);
    // A write the guard cannot see (inside a function) is refused by the server.
    const viaFunction = await failure(query(c, 'SELECT write_one()'));
    assert.equal(viaFunction.kind, 'read_only');
    assert.match(viaFunction.message, /read-only transaction/);
    const viaCte = await failure(query(c, 'WITH w AS (SELECT write_one()) SELECT * FROM w'));
    assert.equal(viaCte.kind, 'read_only');
    // A write the guard sees never reaches the server.
    const refused = await failure(query(c, 'WITH i AS (INSERT INTO written VALUES (2) RETURNING x) SELECT * FROM i'));
    assert.equal(refused.kind, 'refused');
    const admin = await c.admin();
    try {
      assert.equal((await admin.query('SELECT count(*)::int AS n FROM written')).rows[0].n, 0);
    } finally {
      await admin.end();
    }
  });

  it('caps rows at limit (+1 read to know) and by size, and counts them all', async (t) => {
    const c = need(t);
    if (!c) return;
    const byLimit = await query(c, 'SELECT name FROM nc_counties ORDER BY name', { limit: 7 });
    assert.deepEqual([byLimit.returned, byLimit.total_rows, byLimit.truncated, byLimit.truncated_by], [7, 100, true, 'limit']);
    const exact = await query(c, 'SELECT name FROM nc_counties ORDER BY name', { limit: 100 });
    assert.deepEqual([exact.returned, exact.truncated], [100, false]);
    const bySize = await query(c, 'SELECT name, geom FROM nc_counties', { includeGeometry: true, maxChars: 5_000 });
    assert.equal(bySize.truncated_by, 'size');
    assert.ok(bySize.returned >= 1 && bySize.returned < 100);
    assert.ok(JSON.stringify(bySize.rows).length <= 5_000 || bySize.returned === 1);
    assert.equal(bySize.total_rows, 100);
  });

  it('a statement past its time limit is stopped by the server', async (t) => {
    const c = need(t);
    if (!c) return;
    const started = Date.now();
    const err = await failure(query(c, 'SELECT count(*) FROM generate_series(1, 10000000000) g', { timeoutMs: 400 }));
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /time limit/);
    assert.match(err.hint ?? '', /LIMIT/);
    assert.ok(Date.now() - started < 10_000);
  });

  it('Stop cancels the query on the server (pg_cancel_backend from a second session)', async (t) => {
    const c = need(t);
    if (!c) return;
    const stop = new AbortController();
    const started = Date.now();
    const running = query(c, 'SELECT count(*) FROM generate_series(1, 10000000000) g', { timeoutMs: 60_000, signal: stop.signal });
    setTimeout(() => stop.abort(), 500);
    const err = await failure(running);
    assert.equal(err.kind, 'cancelled');
    assert.ok(Date.now() - started < 5_000, `stopped in ${Date.now() - started} ms`);
    const admin = await c.admin();
    try {
      const left = await admin.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%generate_series(1, 10000000000)%' AND pid <> pg_backend_pid()",
      );
      assert.equal(left.rows[0].n, 0, 'nothing still runs on the server');
    } finally {
      await admin.end();
    }
  });

  it('errors are clear: the server’s position and hint, permission denied, refused functions, no server', async (t) => {
    const c = need(t);
    if (!c) return;
    const syntax = await failure(query(c, 'SELECT name\nFORM nc_counties'));
    assert.equal(syntax.kind, 'query');
    // `FORM` is read as an alias of name: the server points at the word after it.
    assert.match(syntax.message, /syntax error at or near "nc_counties" \(at character 18: …SELECT name\nFORM ⟨here⟩nc_counties…\)/);
    const column = await failure(query(c, 'SELECT nmae FROM nc_counties'));
    assert.match(column.message, /column "nmae" does not exist \(at character 8/);
    const fn = await failure(query(c, 'SELECT ST_Bufer(geom, 1) FROM nc_counties'));
    assert.match(fn.hint ?? '', /No function matches the given name and argument types/);

    const reader = specOf(c, { user: 'reader' });
    const denied = await failure(runReadOnlyQuery(reader, READER_PASSWORD, 'SELECT * FROM secret', OPTS));
    assert.equal(denied.kind, 'permission');
    assert.match(denied.message, /permission denied for table secret \(user "reader"\)/);
    assert.equal((await runReadOnlyQuery(reader, READER_PASSWORD, 'SELECT count(*) AS n FROM nc_counties', OPTS)).rows[0]!.n, 100);

    const refused = await failure(query(c, 'SELECT pg_sleep(30)'));
    assert.equal(refused.kind, 'refused');
    assert.match(refused.message, /pg_sleep\(\) is not allowed/);

    const nobody = await failure(runReadOnlyQuery(specOf(c, { port: 1 }), c.password, 'SELECT 1', OPTS));
    assert.equal(nobody.kind, 'connection');
    assert.match(nobody.message, /Could not connect to "Test cluster": Nothing answers at 127\.0\.0\.1:1/);
  });
});

describe('inspect_sql with a connection, through the dispatcher', () => {
  function setup(c: PgTestCluster) {
    const spec = specOf(c);
    const connections = { get: (id: string) => (id === spec.id ? spec : null), password: () => c.password, list: () => [] };
    const asked: ApprovalRequest[] = [];
    const broker = new ApprovalBroker(
      (r) => asked.push(r),
      () => undefined,
    );
    const dispatcher = new ToolDispatcher(
      new ToolRegistry([sqlQuery]),
      { ...testHandles, postgis: createPostgisHandle(() => connections) },
      broker,
      {
        policy: () => ({ mode: 'ask', askForReads: false }),
        audit: () => undefined,
        snapshot: () => undefined,
        loadProduced: async (r) => r.name ?? r.path,
        privatePaths: {
          isPrivate: () => false,
          mentionedIn: () => false,
          databaseOrigin: (id) => (connections.get(id) ? pgOrigin(spec) : null),
        },
        openEgress: () => () => undefined,
      },
    );
    const call = (args: Record<string, unknown>) =>
      dispatcher.dispatch({
        name: 'inspect_sql',
        rawArgs: args,
        caller: 'model',
        callId: `c-${Math.random()}`,
        runId: null,
        conversationId: null,
        signal: new AbortController().signal,
      });
    return { call, asked, broker, origin: pgOrigin(spec) };
  }

  it('an unknown connection is refused before anything is asked or run', async (t) => {
    const c = need(t);
    if (!c) return;
    const s = setup(c);
    const { result } = await s.call({ sql: 'SELECT 1', connection: 'nope' });
    assert.ok(!result.ok);
    assert.match(result.error.message, /no saved PostGIS connection 'nope'/);
    assert.equal(s.asked.length, 0);
  });

  it('a saved connection makes it a network call: the person is asked (naming the server), then it runs', async (t) => {
    const c = need(t);
    if (!c) return;
    const s = setup(c);
    const pending = s.call({ sql: 'SELECT count(*) AS n FROM nc_counties', connection: 'test' });
    for (let i = 0; i < 50 && s.asked.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(s.asked.length, 1, 'asked, although the tool is a read');
    assert.deepEqual(s.asked[0]!.network, [s.origin]);
    s.broker.decide(s.asked[0]!.id, 'approve', false);
    const { result } = await pending;
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual((result.data as { rows: unknown[] }).rows, [{ n: 100 }]);

    // A hostile query is refused in prepare, before the dialog.
    const refused = (await s.call({ sql: "SELECT pg_read_file('/etc/passwd')", connection: 'test' })).result;
    assert.ok(!refused.ok && refused.error.code === 'invalid_params');
    assert.equal(s.asked.length, 1);
  });
});
