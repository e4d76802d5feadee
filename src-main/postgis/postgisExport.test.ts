import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it, type TestContext } from 'node:test';
import { join } from 'node:path';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import { fixtures, haveFixtures, startApp } from '../composition/testApp.js';
import { quoteIdentifier } from '../../src-shared/sql/quote.js';
import { pgClusterSuite, saveTestConnection } from './testing/pgTestSuite.js';

/**
 * `layers.export_postgis` (issue 16) through the whole main process against a real server:
 * the dialog names the server, the GIS worker writes through GDAL's PostgreSQL driver with
 * what main told it, an existing table is never replaced without `overwrite` (which asks as
 * destructive), names round-trip exactly, and no error carries a password.
 */
const NC = join(fixtures, 'nc.gpkg');
const HOSTILE_SCHEMA = `we"ird; sch'ema`;
const HOSTILE_TABLE = `"; DROP TABLE nc_counties; --`;
const WRONG_PASSWORD = 'Wr0ng-pa55-Zq9x';

const pg = pgClusterSuite({
  ncGpkg: NC,
  points: false,
  setupSql: `CREATE SCHEMA results; CREATE SCHEMA ${quoteIdentifier(HOSTILE_SCHEMA)}`,
});
const need = (t: TestContext) => pg.need(t);
type App = Awaited<ReturnType<typeof startApp>>;
let app: App;
let conn: PgConnectionListed;
let nc: Layer;

type Result = { ok: boolean; data?: Record<string, unknown>; error?: { code: string; message: string; hint?: string } };

before(async () => {
  const c = haveFixtures ? await pg.ready() : null;
  if (!c) return;
  app = await startApp(null);
  conn = await save('Test', c.password, 'results');
  // The project's layer, loaded as the person would (a typed path asks).
  const loading = app.services.invoke('entries/trigger', { entry: 'layers.load', params: { path: NC } });
  await approve();
  assert.ok(((await loading) as Result).ok);
  nc = ((await app.services.invoke('project/get', {})) as { layers: Layer[] }).layers[0]!;
});
after(async () => {
  await app?.services.close();
});

const save = (name: string, password: string, outputSchema: string | null): Promise<PgConnectionListed> =>
  saveTestConnection(app.services, pg.cluster!, { name, outputSchema }, password);

async function approve(): Promise<ApprovalRequest> {
  const asked = await app.approval();
  await app.services.invoke('tools/decide', { approvalId: asked.id, decision: 'approve' });
  return asked;
}

/** Runs the export from the interface and approves its dialog; the dialog and the result. */
async function exportLayer(params: Record<string, unknown>): Promise<{ asked: ApprovalRequest; result: Result }> {
  const running = app.services.invoke('entries/trigger', { entry: 'layers.export_postgis', params: { layer: nc.id, ...params } });
  const asked = await approve();
  return { asked, result: (await running) as Result };
}

async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const admin = await pg.cluster!.admin();
  try {
    return (await admin.query(text, values)).rows as T[];
  } finally {
    await admin.end();
  }
}

/** Tables left by an export (its index and key keep the temporary table's name, by design). */
const leftovers = () =>
  sql<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relkind = 'r' AND relname LIKE 'mw\\_export\\_%'`);

describe('layers.export_postgis', () => {
  it('exports nc.gpkg to results.nc_copy: asks naming the server, 100 rows, SRID 4267, the same area and names', async (t) => {
    const c = need(t);
    if (!c) return;
    // No connection or schema given: the only connection, and its results schema.
    const { asked, result } = await exportLayer({ table: 'nc_copy' });
    assert.deepEqual(asked.network, [`postgres://127.0.0.1:${c.port}/${c.database}`]);
    assert.equal(asked.safety, 'write');
    assert.equal(asked.preview?.target, `postgis://${conn.id}|layername=results.nc_copy`);
    assert.equal(asked.preview?.features, 100);
    assert.equal(asked.preview?.crs, 'EPSG:4267');
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(result.data, {
      table: 'results.nc_copy',
      source: `postgis://${conn.id}|layername=results.nc_copy`,
      feature_count: 100,
    });

    const [row] = await sql<{ n: number; srid: number; area: number; type: string }>(
      `SELECT count(*)::int AS n, min(ST_SRID(geom)) AS srid, sum(ST_Area(geom)) AS area, min(GeometryType(geom)) AS type FROM results.nc_copy`,
    );
    assert.equal(row!.n, 100);
    assert.equal(row!.srid, 4267);
    assert.equal(row!.type, 'MULTIPOLYGON');
    const [column] = await sql<{ srid: number; type: string }>(
      `SELECT srid, type FROM geometry_columns WHERE f_table_schema = 'results' AND f_table_name = 'nc_copy' AND f_geometry_column = 'geom'`,
    );
    assert.equal(column?.srid, 4267, 'the column carries the SRID');
    const [index] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = 'results' AND tablename = 'nc_copy' AND indexdef ILIKE '%USING gist%'`,
    );
    assert.equal(index!.n, 1, 'a GiST index');
    const local = spawnSync('ogrinfo', ['-ro', '-q', '-dialect', 'SQLite', '-sql', 'SELECT SUM(ST_Area(geom)) AS a FROM "nc.gpkg"', NC], {
      encoding: 'utf8',
    });
    const localArea = Number(/a \(Real\) = ([\d.eE+-]+)/.exec(local.stdout)?.[1]);
    assert.ok(Number.isFinite(localArea), local.stdout + local.stderr);
    assert.ok(Math.abs(row!.area - localArea) < 1e-9 * localArea, `${row!.area} vs ${localArea}`);
    // Names exactly as the source's (unlaundered: the column keeps its case).
    const copied = await sql<{ name: string }>(`SELECT "NAME" AS name FROM results.nc_copy ORDER BY 1`);
    const original = await sql<{ name: string }>(`SELECT name FROM public.nc_counties ORDER BY 1`);
    assert.deepEqual(
      copied.map((r) => r.name),
      original.map((r) => r.name),
    );
    assert.equal((await leftovers())[0]!.n, 0, 'no temporary table left');
  });

  it('refuses to export over an existing table without overwrite; the table is untouched', async (t) => {
    if (!need(t)) return;
    await sql(`UPDATE results.nc_copy SET "NAME" = 'marker' WHERE fid = 1`);
    const { asked, result } = await exportLayer({ connection: conn.id, table: 'nc_copy' });
    assert.equal(asked.safety, 'write');
    assert.equal(asked.network, undefined, 'the server is remembered for the project');
    assert.equal(result.ok, false);
    assert.match(result.error!.message, /results\.nc_copy already exists/);
    assert.match(result.error!.message, /nothing was written/);
    const [row] = await sql<{ n: number; marker: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE "NAME" = 'marker')::int AS marker FROM results.nc_copy`,
    );
    assert.deepEqual(row, { n: 100, marker: 1 });
    assert.equal((await leftovers())[0]!.n, 0);
  });

  it('replaces the table with overwrite, after a destructive dialog', async (t) => {
    if (!need(t)) return;
    const { asked, result } = await exportLayer({ connection: conn.id, table: 'nc_copy', overwrite: true });
    assert.equal(asked.safety, 'destructive');
    assert.equal(asked.rememberable, false);
    assert.ok(result.ok, JSON.stringify(result));
    const [row] = await sql<{ n: number; marker: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE "NAME" = 'marker')::int AS marker FROM results.nc_copy`,
    );
    assert.deepEqual(row, { n: 100, marker: 0 });
    assert.equal((await leftovers())[0]!.n, 0);
  });

  it('round-trips hostile schema and table names exactly; nc_counties survives', async (t) => {
    if (!need(t)) return;
    for (const [schema, table] of [
      [HOSTILE_SCHEMA, HOSTILE_TABLE],
      ['results', `it's a "table"; with.dots and spaces`],
    ] as const) {
      const { result } = await exportLayer({ connection: conn.id, schema, table });
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.data?.table, `${schema}.${table}`);
      const found = await sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relname = $2 AND c.relkind = 'r'`,
        [schema, table],
      );
      assert.equal(found[0]!.n, 1, `${schema}.${table} exists under exactly that name`);
      const quoted = `"${schema.replace(/"/g, '""')}"."${table.replace(/"/g, '""')}"`;
      assert.equal((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoted}`))[0]!.n, 100);
    }
    assert.equal((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM public.nc_counties`))[0]!.n, 100, 'nc_counties survives');
    assert.equal((await leftovers())[0]!.n, 0);
  });

  it('refuses an unknown connection before any dialog', async (t) => {
    if (!need(t)) return;
    const asked = app.events.filter((e) => e.name === 'approval/requested').length;
    const result = (await app.services.invoke('entries/trigger', {
      entry: 'layers.export_postgis',
      params: { layer: nc.id, connection: 'nope', schema: 'results', table: 'never' },
    })) as Result;
    assert.equal(result.ok, false);
    assert.equal(result.error?.code, 'invalid_params', result.error?.message);
    assert.equal(app.events.filter((e) => e.name === 'approval/requested').length, asked, 'no dialog');
  });

  it('never shows a password in an error (a connection with a wrong one)', async (t) => {
    const c = need(t);
    if (!c) return;
    const wrong = await save('Wrong password', WRONG_PASSWORD, 'results');
    const { result } = await exportLayer({ connection: wrong.id, table: 'never_written' });
    assert.equal(result.ok, false);
    const text = JSON.stringify(result);
    assert.match(result.error!.message, /password|authentication/i, text);
    assert.ok(!text.includes(WRONG_PASSWORD), text);
    assert.ok(!text.includes(c.password), text);
    assert.equal((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'never_written'`))[0]!.n, 0);
  });
});
