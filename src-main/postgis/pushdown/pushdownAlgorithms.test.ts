/**
 * Each push-down algorithm against the same algorithm run locally by the real GIS worker (GDAL
 * and SpatiaLite) on the same data: the test tables are copied from the server into a
 * GeoPackage with ogr2ogr, the worker runs on that, the push-down output is copied back out,
 * and GDAL's ogrinfo measures both files with the same SQL. Counts and attributes must agree
 * exactly, areas and lengths within a small relative tolerance.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import type pg from 'pg';
import { algorithmSuite, ogrNumber, ogrRows, type Row } from '../../gis-worker/algorithms/algorithmTestKit.js';
import { skipReason as gdalSkip } from '../../gis-worker/testSupport.js';
import { pgSuite, needCluster } from './pushdownTestKit.js';
import { runPushdown } from './runPushdown.js';
import { type PgInput, PushdownError } from './types.js';

const SETUP = async (admin: pg.Client): Promise<void> => {
  const key = (
    await admin.query<{ k: string }>(
      `SELECT a.attname AS k FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE i.indrelid = 'nc_counties'::regclass AND i.indisprimary`,
    )
  ).rows[0]!.k;
  await admin.query(`
    CREATE SCHEMA results;
    -- A projected copy (UTM 17N, metres) with a grouping field: buffer needs metres.
    CREATE TABLE nc_utm AS SELECT * FROM nc_counties;
    ALTER TABLE nc_utm ALTER COLUMN geom TYPE geometry(MultiPolygon, 32617) USING ST_Transform(geom, 32617);
    ALTER TABLE nc_utm ADD PRIMARY KEY ("${key}");
    ALTER TABLE nc_utm ADD COLUMN letter text;
    UPDATE nc_utm SET letter = left(name, 1);
    CREATE INDEX ON nc_utm USING gist (geom);
    -- County outlines as lines, for lengths.
    CREATE TABLE nc_lines AS SELECT "${key}" AS id, name, ST_Multi(ST_Boundary(geom))::geometry(MultiLineString, 4267) AS geom FROM nc_counties;
    ALTER TABLE nc_lines ADD PRIMARY KEY (id);
    -- 3,000 seeded random points over the state with a weight and a class.
    SELECT setseed(0.42);
    CREATE TABLE pts (id serial PRIMARY KEY, w double precision, cls text, geom geometry(Point, 4267));
    INSERT INTO pts (w, cls, geom)
      SELECT round((random() * 100)::numeric, 2), CASE WHEN random() < 0.5 THEN 'a' ELSE 'b' END,
             ST_SetSRID(ST_MakePoint(-84.3 + random() * 8.8, 33.9 + random() * 2.7), 4267)
        FROM generate_series(1, 3000);
    CREATE INDEX ON pts USING gist (geom);
    -- Overlay polygons in WGS 84 (so both engines must reproject), one field name clashing with the counties'.
    CREATE TABLE boxes (id integer PRIMARY KEY, name text, pop integer, geom geometry(Polygon, 4326));
    INSERT INTO boxes VALUES
      (1, 'west', 10, ST_MakeEnvelope(-84.5, 34.8, -81.2, 36.7, 4326)),
      (2, 'middle', 20, ST_MakeEnvelope(-80.1, 35.1, -78.3, 36.0, 4326)),
      (3, 'coast', 30, ST_Buffer(ST_SetSRID(ST_MakePoint(-76.5, 35.4), 4326), 0.9, 16));
    CREATE INDEX ON boxes USING gist (geom);
    ANALYZE;`);
};

describe('push-down algorithms against the local worker', { skip: gdalSkip }, () => {
  const pg = pgSuite({ points: false, setup: SETUP });
  const { tmp, runGpkg } = algorithmSuite('mapwright-pushdown-');
  const ref = path.join(tmp.dir, 'inputs.gpkg');
  const got = path.join(tmp.dir, 'pushdown.gpkg');
  const src = (layer: string) => `${ref}|layername=${layer}`;
  const inputs: Record<string, PgInput> = {};

  before(async () => {
    if (!pg.cluster()) return;
    for (const [table, layer] of [
      ['nc_counties', 'nc'],
      ['nc_utm', 'nc_utm'],
      ['nc_lines', 'nc_lines'],
      ['pts', 'pts'],
      ['boxes', 'boxes'],
    ] as const) {
      pg.toGpkg(`public.${table}`, ref, layer);
      inputs[layer] = await pg.input('public', table);
    }
  });

  /** Runs push-down into results.<name> and copies it to pushdown.gpkg as layer <name>. */
  async function pushdown(algorithm: string, layers: string[], params: Record<string, unknown>, name: string, progress?: number[]) {
    const session = await pg.session();
    try {
      const r = await runPushdown(
        session,
        { algorithm, inputs: layers.map((l) => inputs[l]!), params, output: { schema: 'results', table: name, overwrite: true } },
        progress ? { onProgress: (f) => progress.push(f) } : {},
      );
      pg.toGpkg(`results.${name}`, got, name);
      return r;
    } finally {
      await session.client.end();
    }
  }

  const num = (file: string, sql: string) => ogrNumber(file, sql);
  const rows = (file: string, sql: string): Row[] => ogrRows(file, sql);
  const relDiff = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
  /** Sum of areas in km² on an equal-area CRS, by GDAL/SpatiaLite, the same way for both files. */
  const areaKm2 = (file: string, layer: string, where = '1') =>
    num(file, `SELECT SUM(ST_Area(ST_Transform(geom, 6933))) / 1e6 FROM "${layer}" WHERE ${where}`);
  const measured: Record<string, unknown> = {};

  test('buffer: 2 km around each county (UTM), per county and dissolved', async (t) => {
    if (!needCluster(pg, t)) return;
    const progress: number[] = [];
    const p = await pushdown('buffer', ['nc_utm'], { distance: 2000, segments: 8 }, 'buf', progress);
    const l = await runGpkg('buffer', { input: src('nc_utm'), distance: 2000, segments: 8 }, 'buf');
    assert.equal(p.featureCount, l.featureCount);
    const pa = num(got, 'SELECT SUM(ST_Area(geom)) FROM buf');
    const la = num(l.file, 'SELECT SUM(ST_Area(geom)) FROM buf');
    assert.ok(relDiff(pa, la) < 1e-9, `${pa} vs ${la}`);
    assert.deepEqual(
      rows(got, 'SELECT name, bir74, letter FROM buf ORDER BY name'),
      rows(l.file, 'SELECT name, bir74, letter FROM buf ORDER BY name'),
    );
    assert.ok(progress.length > 3 && progress.at(-1) === 1 && progress.every((f, i) => i === 0 || f >= progress[i - 1]!), String(progress));

    const pd = await pushdown('buffer', ['nc_utm'], { distance: 2000, dissolve: true }, 'buf_all');
    const ld = await runGpkg('buffer', { input: src('nc_utm'), distance: 2000, dissolve: true }, 'buf_all');
    assert.equal(pd.featureCount, 1);
    assert.equal(ld.featureCount, 1);
    const pda = num(got, 'SELECT SUM(ST_Area(geom)) FROM buf_all');
    const lda = num(ld.file, 'SELECT SUM(ST_Area(geom)) FROM buf_all');
    assert.ok(relDiff(pda, lda) < 1e-6, `${pda} vs ${lda}`);
    measured.buffer = { features: p.featureCount, areaM2: [pa, la], dissolvedM2: [pda, lda] };
  });

  test('buffer: a distance on a degree layer is refused by both engines', async (t) => {
    if (!needCluster(pg, t)) return;
    await assert.rejects(pushdown('buffer', ['nc'], { distance: 1000 }, 'buf_deg'), (e: unknown) => {
      assert.ok(e instanceof PushdownError && e.code === 'invalid_params', String(e));
      assert.match(e.message, /in degrees \(a geographic CRS\); a buffer needs a projected CRS in metres/);
      return true;
    });
    await assert.rejects(runGpkg('buffer', { input: src('nc'), distance: 1000 }, 'buf_deg'), /in degrees \(a geographic CRS\)/);
    const left = await pg.admin().query(`SELECT to_regclass('results.buf_deg') AS t`);
    assert.equal(left.rows[0].t, null);
  });

  test('dissolve: by first letter, and everything into one', async (t) => {
    if (!needCluster(pg, t)) return;
    const progress: number[] = [];
    const p = await pushdown('dissolve', ['nc_utm'], { by: ['LETTER'] }, 'dis', progress);
    const l = await runGpkg('dissolve', { input: src('nc_utm'), by: ['LETTER'] }, 'dis');
    assert.equal(p.featureCount, l.featureCount);
    const q = 'SELECT letter, feature_count, round(ST_Area(geom) / 1e6, 3) AS km2 FROM dis ORDER BY letter';
    assert.deepEqual(rows(got, q), rows(l.file, q));
    assert.ok(progress.length > 3, 'chunks of groups report progress');
    const pall = await pushdown('dissolve', ['nc'], {}, 'dis_all');
    const lall = await runGpkg('dissolve', { input: src('nc') }, 'dis_all');
    assert.equal(pall.featureCount, 1);
    assert.equal(lall.featureCount, 1);
    assert.equal(num(got, 'SELECT feature_count FROM dis_all'), 100);
    const pa = areaKm2(got, 'dis_all');
    const la = areaKm2(lall.file, 'dis_all');
    assert.ok(relDiff(pa, la) < 1e-6, `${pa} vs ${la}`);
    measured.dissolve = { groups: p.featureCount, allKm2: [pa, la] };
  });

  test('aggregate: statistics by group, as a table and with dissolved geometry', async (t) => {
    if (!needCluster(pg, t)) return;
    const params = { group_by: ['letter'], fields: ['bir74', 'sid74', 'cnty_id'], statistics: ['sum', 'mean', 'max', 'count'] };
    const p = await pushdown('aggregate', ['nc_utm'], params, 'agg');
    const l = await runGpkg('aggregate', { input: src('nc_utm'), ...params }, 'agg');
    assert.equal(p.featureCount, l.featureCount);
    const q =
      'SELECT letter, count, bir74_sum, round(bir74_mean, 6) AS m, bir74_max, bir74_count, sid74_sum, cnty_id_sum, cnty_id_max FROM agg ORDER BY letter';
    assert.deepEqual(rows(got, q), rows(l.file, q));
    const pg2 = await pushdown('aggregate', ['nc_utm'], { ...params, geometry: 'dissolve' }, 'agg_geom');
    const lg = await runGpkg('aggregate', { input: src('nc_utm'), ...params, geometry: 'dissolve' }, 'agg_geom');
    assert.equal(pg2.featureCount, lg.featureCount);
    const qa = 'SELECT letter, count, round(ST_Area(geom) / 1e6, 3) AS km2 FROM agg_geom ORDER BY letter';
    assert.deepEqual(rows(got, qa), rows(lg.file, qa));
    measured.aggregate = { groups: p.featureCount };
  });

  test('area_length: geodesic areas, perimeters and lengths on a NAD27 layer', async (t) => {
    if (!needCluster(pg, t)) return;
    const p = await pushdown('area_length', ['nc'], { area_unit: 'km2', length_unit: 'km' }, 'al');
    const l = await runGpkg('area_length', { input: src('nc'), area_unit: 'km2', length_unit: 'km' }, 'al');
    assert.equal(p.featureCount, l.featureCount);
    const pa = num(got, 'SELECT SUM(area_km2) FROM al');
    const la = num(l.file, 'SELECT SUM(area_km2) FROM al');
    const pp = num(got, 'SELECT SUM(perimeter_km) FROM al');
    const lp = num(l.file, 'SELECT SUM(perimeter_km) FROM al');
    // PostGIS (geography, GeographicLib) and SpatiaLite measure on the same ellipsoid but not
    // identically (and may pick different NAD27 → WGS 84 pipelines): measured 1.1e-5 apart.
    assert.ok(relDiff(pa, la) < 1e-4, `area ${pa} vs ${la}`);
    assert.ok(relDiff(pp, lp) < 1e-4, `perimeter ${pp} vs ${lp}`);
    // Feature by feature too: the largest relative difference of any county.
    const per = (file: string) => new Map(rows(file, 'SELECT name, area_km2 FROM al').map((r) => [r.name, Number(r.area_km2)]));
    const lmap = per(l.file);
    const worst = Math.max(...[...per(got)].map(([n, a]) => relDiff(a, lmap.get(n)!)));
    // Per county the two ellipsoidal area methods differ more (measured up to 1.6e-3, Currituck
    // 694.55 vs 695.64 km²) while the sums agree to 1e-5: SpatiaLite's ST_Area(g, 1) is not
    // GeographicLib, which PostGIS geography uses. A referee of its own is left for later.
    assert.ok(worst < 2e-3, `worst county ${worst}`);
    const pl = await pushdown('area_length', ['nc_lines'], { length_unit: 'm' }, 'len');
    const ll = await runGpkg('area_length', { input: src('nc_lines'), length_unit: 'm' }, 'len');
    assert.equal(pl.featureCount, ll.featureCount);
    const plen = num(got, 'SELECT SUM(length_m) FROM len');
    const llen = num(ll.file, 'SELECT SUM(length_m) FROM len');
    assert.ok(relDiff(plen, llen) < 1e-4, `length ${plen} vs ${llen}`);
    measured.area_length = { areaKm2: [pa, la], perimeterKm: [pp, lp], worstCountyArea: worst, lengthM: [plen, llen] };
  });

  test('clip: counties cut by overlay polygons in another CRS', async (t) => {
    if (!needCluster(pg, t)) return;
    const p = await pushdown('clip', ['nc', 'boxes'], {}, 'clip');
    const l = await runGpkg('clip', { input: src('nc'), overlay: src('boxes') }, 'clip');
    assert.equal(p.featureCount, l.featureCount);
    assert.ok(
      p.notes.some((n) => /reprojected/.test(n)),
      p.notes.join('; '),
    );
    const pa = areaKm2(got, 'clip');
    const la = areaKm2(l.file, 'clip');
    assert.ok(relDiff(pa, la) < 1e-6, `${pa} vs ${la}`);
    const q = 'SELECT name, bir74 FROM clip ORDER BY name';
    assert.deepEqual(rows(got, q), rows(l.file, q));
    measured.clip = { features: p.featureCount, km2: [pa, la] };
  });

  test('intersection: one piece per pair, clashing overlay field renamed', async (t) => {
    if (!needCluster(pg, t)) return;
    const p = await pushdown('intersection', ['nc', 'boxes'], {}, 'inter');
    const l = await runGpkg('intersection', { input: src('nc'), overlay: src('boxes') }, 'inter');
    assert.equal(p.featureCount, l.featureCount);
    const q = 'SELECT name, name_2, pop, round(ST_Area(ST_Transform(geom, 6933)) / 1e6, 2) AS km2 FROM inter ORDER BY name, name_2';
    assert.deepEqual(rows(got, q), rows(l.file, q));
    const pa = areaKm2(got, 'inter');
    const la = areaKm2(l.file, 'inter');
    assert.ok(relDiff(pa, la) < 1e-6, `${pa} vs ${la}`);
    measured.intersection = { features: p.featureCount, km2: [pa, la] };
  });

  test('difference: what lies outside the overlay', async (t) => {
    if (!needCluster(pg, t)) return;
    const p = await pushdown('difference', ['nc', 'boxes'], {}, 'diff');
    const l = await runGpkg('difference', { input: src('nc'), overlay: src('boxes') }, 'diff');
    assert.equal(p.featureCount, l.featureCount);
    const pa = areaKm2(got, 'diff');
    const la = areaKm2(l.file, 'diff');
    assert.ok(relDiff(pa, la) < 1e-6, `${pa} vs ${la}`);
    measured.difference = { features: p.featureCount, km2: [pa, la] };
  });

  test('select by location: intersects, within, disjoint', async (t) => {
    if (!needCluster(pg, t)) return;
    const counts: Record<string, number> = {};
    for (const predicate of ['intersects', 'within', 'disjoint'] as const) {
      const name = `sel_${predicate}`;
      const p = await pushdown('select_by_location', ['nc', 'boxes'], { predicate }, name);
      const l = await runGpkg('select_by_location', { input: src('nc'), overlay: src('boxes'), predicate }, name);
      assert.equal(p.featureCount, l.featureCount, predicate);
      const q = `SELECT name FROM ${name} ORDER BY name`;
      assert.deepEqual(rows(got, q), rows(l.file, q), predicate);
      counts[predicate] = p.featureCount;
    }
    assert.equal(counts.intersects! + counts.disjoint!, 100);
    measured.select_by_location = counts;
  });

  test('spatial join: first match and summary', async (t) => {
    if (!needCluster(pg, t)) return;
    const p = await pushdown('spatial_join', ['pts', 'nc'], { fields: ['NAME', 'fips'] }, 'sj');
    const l = await runGpkg('spatial_join', { input: src('pts'), join: src('nc'), fields: ['NAME', 'fips'] }, 'sj');
    assert.equal(p.featureCount, l.featureCount);
    const q = 'SELECT id, w, name, fips FROM sj ORDER BY id';
    assert.deepEqual(rows(got, q), rows(l.file, q));
    const params = { mode: 'summary', statistics: ['sum', 'mean', 'max'], keep_unmatched: false };
    const ps = await pushdown('spatial_join', ['nc', 'pts'], params, 'sj_sum');
    const ls = await runGpkg('spatial_join', { input: src('nc'), join: src('pts'), ...params }, 'sj_sum');
    assert.equal(ps.featureCount, ls.featureCount);
    const qs = 'SELECT name, join_count, round(w_sum, 6) AS s, round(w_mean, 6) AS m, w_max FROM sj_sum ORDER BY name';
    assert.deepEqual(rows(got, qs), rows(ls.file, qs));
    measured.spatial_join = { first: p.featureCount, summary: ps.featureCount };
  });

  test('count points in polygons: counts and weights per county', async (t) => {
    if (!needCluster(pg, t)) return;
    const p = await pushdown('count_points_in_polygons', ['nc', 'pts'], {}, 'cnt');
    const l = await runGpkg('count_points_in_polygons', { input: src('nc'), points: src('pts') }, 'cnt');
    assert.equal(p.featureCount, 100);
    assert.equal(l.featureCount, 100);
    const q = 'SELECT name, point_count FROM cnt ORDER BY name';
    assert.deepEqual(rows(got, q), rows(l.file, q));
    const pw = await pushdown('count_points_in_polygons', ['nc', 'pts'], { field_name: 'w_total', weight_field: 'W' }, 'cntw');
    const lw = await runGpkg(
      'count_points_in_polygons',
      { input: src('nc'), points: src('pts'), field_name: 'w_total', weight_field: 'W' },
      'cntw',
    );
    assert.equal(pw.featureCount, lw.featureCount);
    const qw = 'SELECT name, round(w_total, 6) AS w FROM cntw ORDER BY name';
    assert.deepEqual(rows(got, qw), rows(lw.file, qw));
    measured.count_points = { total: [num(got, 'SELECT SUM(point_count) FROM cnt'), num(l.file, 'SELECT SUM(point_count) FROM cnt')] };
    console.log('push-down vs local:', JSON.stringify(measured));
  });
});
