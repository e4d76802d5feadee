import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import { pgRasterOf, pgRasterSublayer } from '../../src-shared/domain/pgSource.js';
import { startApp } from '../composition/testApp.js';
import { pgClusterSuite, saveTestConnection } from './testing/pgTestSuite.js';

/**
 * Raster tables of a PostGIS connection as layers (issue 16): GDAL's PostGIS Raster driver
 * reads the whole table as one raster (`mode=2`, out-db bands resolved by the server), and the
 * app draws it like any raster. Names with dots and spaces travel escaped in the sublayer.
 */
const pg = pgClusterSuite({
  points: false,
  setupSql: `CREATE EXTENSION postgis_raster;
    CREATE SCHEMA "odd schema";
    -- 200 x 100 cells of 0.01°, values x + y (1-based), nodata -9999 in one corner cell.
    CREATE TABLE "odd schema"."dem.v1" (rid serial PRIMARY KEY, rast raster);
    INSERT INTO "odd schema"."dem.v1" (rast)
      SELECT ST_SetValue(
        ST_MapAlgebra(ST_AddBand(ST_MakeEmptyRaster(200, 100, -80, 36, 0.01, -0.01, 0, 0, 4326), '32BF'::text, 0, -9999), 1, '32BF', '[rast.x] + [rast.y]'),
        1, 1, 1, -9999);
    SELECT AddRasterConstraints('odd schema'::name, 'dem.v1'::name, 'rast'::name);`,
});
const need = (t: TestContext) => pg.need(t);
let app: Awaited<ReturnType<typeof startApp>>;
let conn: PgConnectionListed;

before(async () => {
  const c = await pg.ready();
  if (!c) return;
  app = await startApp(null);
  conn = await saveTestConnection(app.services, c);
});
after(async () => {
  await app?.services.close();
});
const layers = async () => ((await app.services.invoke('project/get', {})) as { layers: Layer[] }).layers;

/** The slippy tile holding a point at zoom z. */
function tileAt(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [z, x, y];
}

describe('PostGIS raster tables as layers', () => {
  it('browses the raster column and loads it from the panel: size, CRS and statistics as the server counts them', async (t) => {
    const c = need(t);
    if (!c) return;
    const browsed = (await app.services.invoke('postgis/browse', { id: conn.id })) as {
      ok: boolean;
      schemas: { name: string; tables: { name: string; columns: { name: string; kind: string; srid: number }[] }[] }[];
    };
    const dem = browsed.schemas.find((s) => s.name === 'odd schema')!.tables.find((tb) => tb.name === 'dem.v1')!;
    assert.deepEqual(
      dem.columns.map((col) => [col.name, col.kind, col.srid]),
      [['rast', 'raster', 4326]],
    );

    const r = await app.services.invoke('postgis/load', { id: conn.id, schema: 'odd schema', table: 'dem.v1', raster: 'rast' });
    assert.ok((r as { ok: boolean }).ok, JSON.stringify(r));
    const layer = (await layers()).find((l) => l.kind === 'raster')!;
    assert.equal(layer.source, `postgis://${conn.id}`);
    assert.deepEqual(pgRasterOf(layer.sublayer!), { schema: 'odd schema', table: 'dem.v1', column: 'rast' });
    assert.equal(layer.name, 'dem.v1');
    assert.equal(layer.info.crs?.epsg, 4326);
    assert.equal(layer.info.width, 200);
    assert.equal(layer.info.height, 100);
    const band = layer.info.bands[0]!;
    assert.equal(band.nodata, -9999);

    const admin = await c.admin();
    try {
      const { rows } = await admin.query<{ min: number; max: number; count: number }>(
        `SELECT (s).min, (s).max, (s).count::int FROM (SELECT ST_SummaryStats(rast, 1, true) AS s FROM "odd schema"."dem.v1") q`,
      );
      const server = rows[0]!;
      assert.equal(server.count, 200 * 100 - 1, 'the nodata cell is left out');
      assert.equal(band.min, server.min);
      assert.equal(band.max, server.max);
    } finally {
      await admin.end();
    }

    // Drawn like any raster: a tile over it is an image with something in it.
    const [z, x, y] = tileAt(-79.0, 35.5, 8);
    const tile = await app.services.serveData(`tiles/${layer.id}/${z}/${x}/${y}.png`);
    assert.equal(tile.status, 200);
    assert.equal(tile.contentType, 'image/png');
    assert.ok((tile.body as Uint8Array).byteLength > 200, `${(tile.body as Uint8Array).byteLength} bytes`);
  });

  it('refuses malformed or hostile raster sources with a clear reason (a quote never reaches the driver string)', async (t) => {
    if (!need(t)) return;
    const attempts: [string, RegExp][] = [
      [pgRasterSublayer({ schema: 'public', table: "x' host='evil.example", column: 'rast' }), /quote or backslash/],
      ['raster:public.onlytwo', /names its table|raster/i],
      ['raster:public.t.%ZZ', /names its table|raster/i],
      [pgRasterSublayer({ schema: 'public', table: 'missing', column: 'rast' }), /Cannot open/],
    ];
    for (const [sublayer, reason] of attempts) {
      const call = app.services.invoke('entries/trigger', {
        entry: 'layers.load',
        params: { path: `postgis://${conn.id}|layername=${sublayer}` },
      }) as Promise<{ ok: boolean; error?: { message: string } }>;
      // A typed path asks first: approved, the worker then refuses it.
      const asked = await Promise.race([call.then(() => null), app.approval()]);
      if (asked) await app.services.invoke('tools/decide', { approvalId: asked.id, decision: 'approve' });
      const r = await call;
      assert.equal(r.ok, false, sublayer);
      assert.match(r.error!.message, reason, sublayer);
    }
  });
});
