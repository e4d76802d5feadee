/**
 * Push-down without a results schema (issue 16), against a real server: the algorithm runs in
 * a temporary table of its own session and the result comes back as a local GeoPackage layer
 * (written by the worker's own function, in process) equal to the same run into a results
 * schema — count, geometry, field names and types — with nothing left on the server; Stop
 * leaves no GeoPackage and no table.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type pg from 'pg';
import type { PgConnectionSpec } from '../../src-shared/domain/pgConnection.js';
import { formatSource } from '../../src-shared/domain/source.js';
import { CancelledError } from '../gis-worker/errors.js';
// The worker's own GDAL (the in-process writer below loads it anyway) reads both results back.
import { gdal } from '../gis-worker/gdal.js';
import { writeStagedLayer } from '../gis-worker/postgisWriteStaged.js';
import { makeTempDir, skipReason as gdalSkip } from '../gis-worker/testSupport.js';
import { runPushdownToLocal, type StagedWriter } from './pgPushdownLocal.js';
import { runPushdownCall, type PushdownCall } from './pgPushdownRun.js';
import { needCluster, pgSuite } from './pushdown/pushdownTestKit.js';
import { PushdownError } from './pushdown/types.js';
import { testConnectionSpec } from './testing/pgTestSuite.js';

type GdalLayer = ReturnType<ReturnType<typeof gdal.open>['layers']['get']>;

const HOSTILE_FIELD = `na"me'; DROP TABLE nc_counties; -- ü 名前`;

const SETUP = async (admin: pg.Client): Promise<void> => {
  await admin.query(`
    CREATE SCHEMA results;
    CREATE TABLE nc_utm AS SELECT * FROM nc_counties;
    ALTER TABLE nc_utm ALTER COLUMN geom TYPE geometry(MultiPolygon, 32617) USING ST_Transform(geom, 32617);
    ALTER TABLE nc_utm ADD COLUMN id serial PRIMARY KEY;
    ALTER TABLE nc_utm ADD COLUMN letter text;
    UPDATE nc_utm SET letter = left(name, 1);
    CREATE TABLE boxes (id integer PRIMARY KEY, name text, geom geometry(Polygon, 4326));
    INSERT INTO boxes VALUES (1, 'west', ST_MakeEnvelope(-84.5, 34.8, -81.2, 36.7, 4326)),
      (2, 'coast', ST_Buffer(ST_SetSRID(ST_MakePoint(-76.5, 35.4), 4326), 0.9, 16));
    -- One column of each common type, values at their edges.
    CREATE TABLE typed (id integer PRIMARY KEY, i integer, big bigint, d double precision, t text, day date,
      n numeric(10,2), flag boolean, v varchar(20), at timestamp, "${HOSTILE_FIELD.replace(/"/g, '""')}" text,
      geom geometry(Polygon, 32617));
    INSERT INTO typed VALUES
      (1, -2147483648, 9007199254740993, 0.1, 'a''b"c;', '2024-02-29', 12345678.91, true, 'vé', '2020-01-02 03:04:05',
        'x"; --', ST_MakeEnvelope(0, 0, 10, 10, 32617)),
      (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, ST_MakeEnvelope(20, 0, 30, 10, 32617));
    -- Many points for Stop (UTM 17N, metres).
    CREATE TABLE pts_utm AS SELECT id, ST_Transform(geom, 32617)::geometry(Point, 32617) AS geom FROM points_1m;
    ALTER TABLE pts_utm ADD PRIMARY KEY (id);
    ANALYZE;`);
};

describe('push-down into a local layer (no results schema)', { skip: gdalSkip }, () => {
  const pg = pgSuite({ points: true, setup: SETUP });
  const tmp = makeTempDir('mapwright-pushdown-local-');

  const connections = (outputSchema: string | null) => {
    const c = pg.cluster()!;
    const spec: PgConnectionSpec = testConnectionSpec(c, { outputSchema });
    return { get: (id: string) => (id === spec.id ? spec : null), password: () => c.password };
  };
  /** The worker's function, in process, as the GIS worker runs it for main. */
  const writer =
    (output: string, before?: () => void): StagedWriter<{ output: string; featureCount: number }> =>
    async (staged, opts) => {
      before?.();
      return writeStagedLayer({ ...staged, output }, { signal: opts.signal ?? new AbortController().signal, progress: () => undefined });
    };
  const call = (algorithm: string, tables: string[], params: Record<string, unknown>): Omit<PushdownCall, 'outputName'> => ({
    connectionId: 'test',
    algorithm,
    tables: tables.map((table) => ({ schema: 'public', table })),
    params,
  });
  /** Every relation outside the temporary and TOAST schemas. */
  const relations = async () =>
    (
      await pg.admin().query<{ r: string }>(
        `SELECT n.nspname || '.' || c.relname AS r FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast%' ORDER BY 1`,
      )
    ).rows.map((x) => x.r);
  const pgDataset = () => {
    const c = pg.cluster()!;
    return gdal.drivers
      .get('PostgreSQL')
      .open(`PG:host=${c.host} port=${c.port} dbname=${c.database} user=${c.user} password=${c.password}`);
  };
  const fieldsOf = (layer: GdalLayer) => layer.fields.map((f) => [f.name, f.type]);
  const areaOf = (layer: GdalLayer) => {
    let sum = 0;
    for (const f of layer.features) sum += (f.getGeometry() as unknown as { getArea(): number } | null)?.getArea() ?? 0;
    return sum;
  };

  /** The same run into results.<name> and into <name>.gpkg; both read back by GDAL. */
  async function both(name: string, run: Omit<PushdownCall, 'outputName'>) {
    const table = await runPushdownCall(connections('results'), { ...run, outputName: name });
    const before = await relations();
    const file = path.join(tmp.dir, `${name}.gpkg`);
    const local = await runPushdownToLocal(connections(null), run, writer(formatSource({ path: file, sublayer: name })));
    assert.deepEqual(await relations(), before, 'nothing new on the server');
    assert.equal(local.written.featureCount, local.featureCount);
    const server = pgDataset();
    const gpkg = gdal.open(file);
    try {
      const a = server.layers.get(`results.${table.output.table}`);
      const b = gpkg.layers.get(name);
      assert.equal(b.features.count(), a.features.count());
      assert.equal(local.featureCount, table.featureCount);
      assert.deepEqual(fieldsOf(b), fieldsOf(a));
      assert.equal(b.srs?.getAuthorityCode(null), a.srs?.getAuthorityCode(null));
      const [areaA, areaB] = [areaOf(a), areaOf(b)];
      assert.ok(Math.abs(areaA - areaB) <= 1e-9 * Math.abs(areaA), `${areaA} vs ${areaB}`);
      return { a, b, local, server, gpkg, areaA };
    } catch (err) {
      server.close();
      gpkg.close();
      throw err;
    }
  }

  test('buffer, dissolve and clip: the local layer equals the run into a results schema, nothing stays on the server', async (t) => {
    if (!needCluster(pg, t)) return;
    const progress: number[] = [];
    const buffered = await both('buf', call('buffer', ['nc_utm'], { distance: 2000, segments: 8 }));
    try {
      assert.equal(buffered.local.featureCount, 100);
      // Exact geometry: the same WKB, feature by feature.
      for (const f of buffered.b.features) {
        const g = buffered.a.features.get(f.fid);
        assert.ok(g, `fid ${f.fid}`);
        assert.equal(f.getGeometry()!.toWKB().toString('hex'), g.getGeometry()!.toWKB().toString('hex'), `fid ${f.fid}`);
        assert.deepEqual(f.fields.toObject(), g.fields.toObject());
      }
    } finally {
      buffered.server.close();
      buffered.gpkg.close();
    }
    const dissolved = await both('dis', call('dissolve', ['nc_utm'], { by: ['letter'] }));
    dissolved.server.close();
    dissolved.gpkg.close();
    assert.ok(dissolved.local.featureCount > 10 && dissolved.local.featureCount < 100);
    const clipped = await both('clip', call('clip', ['nc_utm', 'boxes'], {}));
    clipped.server.close();
    clipped.gpkg.close();
    assert.ok(clipped.local.featureCount > 0 && clipped.local.featureCount < 100);

    // Progress: the engine, the copy back and the writing, in order, to the end.
    await runPushdownToLocal(
      connections(null),
      call('buffer', ['nc_utm'], { distance: 10 }),
      writer(formatSource({ path: path.join(tmp.dir, 'p.gpkg'), sublayer: 'p' })),
      {
        onProgress: (f) => progress.push(f),
      },
    );
    assert.ok(
      progress.every((f, i) => i === 0 || f >= progress[i - 1]!),
      String(progress),
    );
    assert.ok(
      progress.some((f) => f > 0.7 && f < 0.9),
      'the copy back reports progress',
    );
  });

  test('field types and values survive: integer, bigint, double, text, date, numeric, boolean, varchar, timestamp, a hostile name', async (t) => {
    if (!needCluster(pg, t)) return;
    const r = await both('typed', call('buffer', ['typed'], { distance: 1 }));
    try {
      const names = r.b.fields.map((f) => f.name);
      assert.ok(names.includes(HOSTILE_FIELD), names.join(', '));
      const first = r.b.features.get(1).fields.toObject() as Record<string, unknown>;
      assert.deepEqual(first, r.a.features.get(1).fields.toObject());
      assert.equal(first.i, -2147483648);
      assert.equal(first.d, 0.1);
      assert.equal(first.t, 'a\'b"c;');
      assert.deepEqual(first.day, { year: 2024, month: 2, day: 29 });
      assert.equal(first.n, 12345678.91);
      assert.equal(first.flag, 1);
      assert.equal(first[HOSTILE_FIELD], 'x"; --');
      const second = r.b.features.get(2).fields.toObject() as Record<string, unknown>;
      assert.ok(
        Object.values(second).every((v) => v === null),
        JSON.stringify(second),
      );
    } finally {
      r.server.close();
      r.gpkg.close();
    }
    // int8 beyond 2^53, exactly (GDAL's own text of the stored value).
    const big = gdal.open(path.join(tmp.dir, 'typed.gpkg')).executeSQL('SELECT CAST(big AS character(20)) AS s FROM typed WHERE fid = 1');
    assert.equal(String(big.features.first().fields.get('s')).trim(), '9007199254740993');
  });

  test('Stop: during the run in the database, during the copy back and during the writing: no GeoPackage, no table', async (t) => {
    if (!needCluster(pg, t)) return;
    const before = await relations();
    const staging = () => readdirSync(tmpdir()).filter((d) => d.startsWith('mapwright-pdstage-'));
    const stagingBefore = staging().length;
    const isCancelled = (e: unknown) => {
      assert.ok((e instanceof PushdownError && e.code === 'cancelled') || e instanceof CancelledError, String(e));
      return true;
    };

    // In the database: a big dissolved buffer, stopped after 300 ms.
    const big = path.join(tmp.dir, 'big.gpkg');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    await assert.rejects(
      runPushdownToLocal(
        connections(null),
        call('buffer', ['pts_utm'], { distance: 500, segments: 16, dissolve: true }),
        writer(formatSource({ path: big, sublayer: 'big' })),
        { signal: controller.signal },
      ),
      isCancelled,
    );
    assert.ok(performance.now() - started < 5000, 'Stop is prompt');
    assert.equal(existsSync(big), false);

    // During the copy back: the first batch fetched, then Stop.
    const copy = path.join(tmp.dir, 'copy.gpkg');
    const c2 = new AbortController();
    await assert.rejects(
      runPushdownToLocal(
        connections(null),
        call('buffer', ['nc_utm'], { distance: 1 }),
        writer(formatSource({ path: copy, sublayer: 'copy' })),
        {
          signal: c2.signal,
          onProgress: (_f, m) => m.startsWith('Copying') && c2.abort(),
        },
      ),
      isCancelled,
    );
    assert.equal(existsSync(copy), false);

    // During the writing.
    const w = path.join(tmp.dir, 'w.gpkg');
    const c3 = new AbortController();
    await assert.rejects(
      runPushdownToLocal(
        connections(null),
        call('buffer', ['nc_utm'], { distance: 10 }),
        writer(formatSource({ path: w, sublayer: 'w' }), () => c3.abort()),
        { signal: c3.signal },
      ),
      isCancelled,
    );
    assert.equal(existsSync(w), false);

    assert.deepEqual(await relations(), before, 'nothing on the server');
    const temp = await pg.admin().query(`SELECT 1 FROM pg_class WHERE relname = 'mapwright_pushdown_result'`);
    assert.equal(temp.rowCount, 0, 'no temporary table is left either');
    assert.ok(staging().length <= stagingBefore, 'the staging folders are removed');
  });
});
