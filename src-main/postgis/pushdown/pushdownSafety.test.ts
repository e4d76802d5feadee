/**
 * Stop, overwrite, hostile names and bad params, against the real server: a cancelled run
 * leaves no table and no running query; names with quotes and semicolons are names, never SQL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type pg from 'pg';
import { describePgInput } from './describeInput.js';
import { needCluster, pgSuite } from './pushdownTestKit.js';
import { runPushdown } from './runPushdown.js';
import { type PushdownRequest, PushdownError } from './types.js';

const HOSTILE_SCHEMA = 'we"ird; schema';
const HOSTILE_TABLE = '"; DROP TABLE nc_counties; --';
const HOSTILE_FIELD = `na"me'; DROP TABLE nc_counties; --`;

const SETUP = async (admin: pg.Client): Promise<void> => {
  await admin.query(`
    CREATE SCHEMA results;
    -- A big projected point layer for Stop (UTM 17N, metres, so buffer accepts it).
    CREATE TABLE pts_utm AS SELECT id, value, ST_Transform(geom, 32617)::geometry(Point, 32617) AS geom FROM points_1m;
    ALTER TABLE pts_utm ADD PRIMARY KEY (id);
    CREATE SCHEMA "we""ird; schema";
    CREATE TABLE "we""ird; schema"."""; DROP TABLE nc_counties; --" (
      id integer PRIMARY KEY, "na""me'; DROP TABLE nc_counties; --" text, geom geometry(Polygon, 32617));
    INSERT INTO "we""ird; schema"."""; DROP TABLE nc_counties; --" VALUES
      (1, 'a''b"c', ST_MakeEnvelope(0, 0, 10, 10, 32617)), (2, 'x', ST_MakeEnvelope(20, 0, 30, 10, 32617));
    CREATE TABLE two_geoms (id integer PRIMARY KEY, g1 geometry(Point, 4326), g2 geometry(Point, 4326));
    CREATE TABLE no_geom (id integer PRIMARY KEY, v text);
    CREATE TABLE no_key (v text, geom geometry(Polygon, 32617));
    INSERT INTO no_key VALUES ('k', ST_MakeEnvelope(0, 0, 10, 10, 32617));
    ANALYZE;`);
};

describe('push-down safety on a real server', () => {
  const pg = pgSuite({ points: true, setup: SETUP });

  async function run(request: PushdownRequest, opts: Parameters<typeof runPushdown>[2] = {}) {
    const session = await pg.session();
    try {
      return await runPushdown(session, request, opts);
    } finally {
      await session.client.end();
    }
  }
  const exists = async (schema: string, table: string) =>
    (await pg.admin().query('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [schema, table])).rowCount === 1;
  const code = (c: string, re?: RegExp) => (e: unknown) => {
    assert.ok(e instanceof PushdownError, String(e));
    assert.equal(e.code, c, e.message);
    if (re) assert.match(e.message, re);
    return true;
  };

  test('Stop: a big buffer is cancelled on the server, rolled back, and the query is gone', async (t) => {
    if (!needCluster(pg, t)) return;
    const session = await pg.session();
    const pid = Number((await session.client.query('SELECT pg_backend_pid() AS p')).rows[0].p);
    const controller = new AbortController();
    const progress: number[] = [];
    const started = performance.now();
    setTimeout(() => controller.abort(), 200);
    try {
      await assert.rejects(
        runPushdown(
          session,
          {
            algorithm: 'buffer',
            inputs: [await pg.input('public', 'pts_utm')],
            params: { distance: 500, segments: 16, dissolve: true },
            output: { schema: 'results', table: 'big_buffer', overwrite: false },
          },
          { signal: controller.signal, onProgress: (f) => progress.push(f) },
        ),
        code('cancelled', /^cancelled$/),
      );
      const seconds = (performance.now() - started) / 1000;
      console.log(`cancelled after ${seconds.toFixed(2)} s`);
      assert.ok(seconds < 5, `Stop took ${seconds} s`);
      assert.equal(await exists('results', 'big_buffer'), false);
      const activity = await pg.admin().query('SELECT state, query FROM pg_stat_activity WHERE pid = $1', [pid]);
      assert.equal(activity.rows[0]?.state, 'idle', JSON.stringify(activity.rows));
      // The session is usable again, outside any transaction.
      assert.equal((await session.client.query('SELECT 1 AS one')).rows[0].one, 1);
    } finally {
      await session.client.end();
    }
  });

  test('Stop before the start, and between chunks of a chunked run', async (t) => {
    if (!needCluster(pg, t)) return;
    const input = await pg.input('public', 'pts_utm');
    const request: PushdownRequest = {
      algorithm: 'buffer',
      inputs: [input],
      params: { distance: 50 },
      output: { schema: 'results', table: 'chunked', overwrite: false },
    };
    await assert.rejects(run(request, { signal: AbortSignal.abort() }), code('cancelled'));
    const controller = new AbortController();
    await assert.rejects(run(request, { signal: controller.signal, onProgress: (f) => f > 0.1 && controller.abort() }), code('cancelled'));
    assert.equal(await exists('results', 'chunked'), false);
  });

  test('overwrite: refused unless asked, then replaced in one transaction', async (t) => {
    if (!needCluster(pg, t)) return;
    const request = (overwrite: boolean, distance: number): PushdownRequest => ({
      algorithm: 'buffer',
      inputs: [{ schema: 'public', table: 'no_key', geomColumn: 'geom', srid: 32617, keyColumn: null }],
      params: { distance },
      output: { schema: 'results', table: 'ow', overwrite },
    });
    const first = await run(request(false, 1));
    assert.equal(first.featureCount, 1);
    await assert.rejects(run(request(false, 2)), code('output_exists', /already exists/));
    await run(request(true, 2));
    const area = (await pg.admin().query('SELECT ST_Area(geom) AS a FROM results.ow')).rows[0].a;
    // 10 × 10 grown by 2 (≈ 192.5) rather than by 1 (≈ 143): the new run replaced the old table.
    assert.ok(area > 180, `replaced: ${area}`);
    // A failure after the drop rolls the drop back too: the old table is still there.
    await assert.rejects(run({ ...request(true, 3), params: { distance: -1 } }), code('invalid_params'));
    await assert.rejects(
      run({ ...request(true, 3), algorithm: 'dissolve', params: { by: ['nope'] } }),
      code('invalid_params', /no field 'nope'/),
    );
    assert.equal(await exists('results', 'ow'), true);
    const cols = await pg
      .admin()
      .query(
        `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'results' AND table_name = 'ow' ORDER BY ordinal_position`,
      );
    assert.deepEqual(
      cols.rows.map((r) => r.column_name),
      ['fid', 'v', 'geom'],
    );
    const typmod = await pg
      .admin()
      .query(`SELECT type, srid FROM geometry_columns WHERE f_table_schema = 'results' AND f_table_name = 'ow'`);
    assert.deepEqual(typmod.rows[0], { type: 'MULTIPOLYGON', srid: 32617 });
    const gist = await pg.admin().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'results' AND tablename = 'ow'`);
    assert.ok(
      gist.rows.some((r) => /USING gist \(geom\)/.test(r.indexdef)),
      JSON.stringify(gist.rows),
    );
    // Never an input, never a view.
    await assert.rejects(
      run({ ...request(true, 1), output: { schema: 'public', table: 'no_key', overwrite: true } }),
      code('invalid_params', /is one of the inputs/),
    );
    await pg.admin().query('CREATE VIEW results.a_view AS SELECT 1 AS x');
    await assert.rejects(
      run({ ...request(true, 1), output: { schema: 'results', table: 'a_view', overwrite: true } }),
      code('output_exists', /not a table/),
    );
  });

  test('hostile schema, table, field and output names stay names', async (t) => {
    if (!needCluster(pg, t)) return;
    const input = await pg.input(HOSTILE_SCHEMA, HOSTILE_TABLE);
    assert.deepEqual(input, { schema: HOSTILE_SCHEMA, table: HOSTILE_TABLE, geomColumn: 'geom', srid: 32617, keyColumn: 'id' });
    const out = { schema: HOSTILE_SCHEMA, table: `out"; DROP TABLE nc_counties; --`, overwrite: false };
    const r = await run({ algorithm: 'dissolve', inputs: [input], params: { by: [HOSTILE_FIELD] }, output: out });
    assert.equal(r.featureCount, 2);
    const rows = await pg
      .admin()
      .query(
        `SELECT "na""me'; DROP TABLE nc_counties; --" AS v, feature_count FROM "we""ird; schema"."out""; DROP TABLE nc_counties; --" ORDER BY 1`,
      );
    assert.deepEqual(rows.rows, [
      { v: `a'b"c`, feature_count: 1 },
      { v: 'x', feature_count: 1 },
    ]);
    const b = await run({
      algorithm: 'buffer',
      inputs: [input],
      params: { distance: 1 },
      output: { schema: 'results', table: `b'; SELECT pg_sleep(10); --`, overwrite: false },
    });
    assert.equal(b.featureCount, 2);
    assert.equal(await exists('public', 'nc_counties'), true);
    assert.equal(await exists('results', `b'; SELECT pg_sleep(10); --`), true);
  });

  test('bad field names name the nearest real ones; bad params and names are refused clearly', async (t) => {
    if (!needCluster(pg, t)) return;
    const nc = await pg.input('public', 'nc_counties');
    const base = { inputs: [nc], output: { schema: 'results', table: 'bad', overwrite: false } };
    await assert.rejects(
      run({ ...base, algorithm: 'aggregate', params: { group_by: ['nmae'] } }),
      code('invalid_params', /'group_by': no field 'nmae' in public\.nc_counties; did you mean 'name'\? Its fields are: .*bir74/),
    );
    await assert.rejects(
      run({ ...base, algorithm: 'aggregate', params: { group_by: ['name'], fields: ['name'], statistics: ['sum'] } }),
      code('invalid_params', /name is character varying.*sum needs a numeric field/),
    );
    await assert.rejects(run({ ...base, algorithm: 'buffer', params: { distance: 'ten' } }), code('invalid_params', /params\.distance/));
    await assert.rejects(run({ ...base, algorithm: 'reproject', params: {} }), code('invalid_params', /cannot run inside PostGIS/));
    await assert.rejects(run({ ...base, algorithm: 'clip', params: {} }), code('invalid_params', /takes 2 table/));
    await assert.rejects(
      run({ ...base, algorithm: 'dissolve', params: {}, output: { schema: 'nope', table: 'x', overwrite: false } }),
      code('invalid_params', /no schema 'nope'/),
    );
    await assert.rejects(
      run({ ...base, algorithm: 'dissolve', params: {}, output: { schema: 'results', table: 'x'.repeat(64), overwrite: false } }),
      code('invalid_params', /64 bytes long/),
    );
    await assert.rejects(
      run({ ...base, algorithm: 'count_points_in_polygons', inputs: [nc, nc], params: {} }),
      code('invalid_params', /'points' must be a point layer/),
    );
    assert.equal(await exists('results', 'bad'), false);
  });

  test('describePgInput reads the catalogue and refuses what it cannot use', async (t) => {
    if (!needCluster(pg, t)) return;
    const admin = pg.admin();
    assert.deepEqual(await describePgInput(admin, { schema: 'public', table: 'points_1m' }), {
      schema: 'public',
      table: 'points_1m',
      geomColumn: 'geom',
      srid: 4267,
      keyColumn: 'id',
      geometryType: 'POINT',
    });
    assert.equal((await describePgInput(admin, { schema: 'public', table: 'no_key' })).keyColumn, null);
    await assert.rejects(
      describePgInput(admin, { schema: 'public', table: 'two_geoms' }),
      code('invalid_params', /2 geometry columns \(g1, g2\)/),
    );
    assert.equal((await describePgInput(admin, { schema: 'public', table: 'two_geoms', geomColumn: 'g2' })).geomColumn, 'g2');
    await assert.rejects(
      describePgInput(admin, { schema: 'public', table: 'two_geoms', geomColumn: 'g3' }),
      code('invalid_params', /no geometry column 'g3'/),
    );
    await assert.rejects(describePgInput(admin, { schema: 'public', table: 'no_geom' }), code('invalid_params', /has no geometry column/));
    await assert.rejects(describePgInput(admin, { schema: 'public', table: 'missing' }), code('invalid_params', /no table or view/));
  });
});
