/**
 * PostGIS (issue 16), in one run against a throwaway PostgreSQL + PostGIS server
 * (src-main/postgis/testing/pgTestCluster.ts):
 *
 * 1. Tile latency on the 1,000,000-point table `points_1m`: the same tiles (a few zoomed-out
 *    z4–z7 tiles over the NC extent, many z10–z14 ones; seeded) made by the server
 *    (pgVectorTile.ts, one session) and by the real worker process from a GeoPackage export of
 *    the same table (`display.prepare_vector` once, untimed, then `display.vector_tile`).
 * 2. Buffer of ~100k real polygons (vectorBenchKit.ts, UTM 17N): push-down inside PostGIS
 *    (pgPushdownRun.ts, into an output schema made here) against the worker's `buffer`
 *    algorithm on the GeoPackage the table was loaded from — same distance and segments, and
 *    both outputs checked to hold the same features and total area.
 *
 *   npx tsx scripts/bench/postgis.ts [--features 100000] [--tiles 80] [--runs 1] [--distance 100] [--keep]
 *
 * Times are wall-clock. Tiles: each tile's best of --runs per path, the two paths alternating
 * tile by tile so background load weighs on both alike. Buffer: best of --runs, in alternating
 * order. Without the PostgreSQL/PostGIS binaries it prints why and exits 0.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { PgConnectionSpec } from '../../src-shared/domain/pgConnection.js';
import { TILE_FEATURE_CAP } from '../../src-shared/style/vectorTiles.js';
import { runPushdownCall } from '../../src-main/postgis/pgPushdownRun.js';
import { pgVectorTile, type PgTileTable } from '../../src-main/postgis/pgVectorTile.js';
import { describePgInput } from '../../src-main/postgis/pushdown/describeInput.js';
import { startPgTestCluster, type PgTestCluster } from '../../src-main/postgis/testing/pgTestCluster.js';
import { ENV, option, requireFixture, runWorkerBench, seconds, timeIt } from './benchKit.js';
import { outputSummary, preparePieces } from './vectorBenchKit.js';

const FEATURES = option('features', 100_000);
const TILES = option('tiles', 80);
const RUNS = Math.max(1, option('runs', 1));
const DISTANCE = option('distance', 100);
const SEGMENTS = 8;
/** The NC counties' extent (NAD27 degrees), where pgTestCluster puts the random points. */
const NC = { minX: -84.3239, minY: 33.882, maxX: -75.457, maxY: 36.5896 };
const OUTPUT_SCHEMA = 'bench_out';
const FIELDS = ['value'];

interface Tile {
  z: number;
  x: number;
  y: number;
}

interface TileSample {
  ms: number;
  kept: number;
  dropped: number;
  bytes: number;
}

/** A small seeded generator (mulberry32): the same tiles on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function tileAt(lon: number, lat: number, z: number): Tile {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return { z, x: Math.min(n - 1, Math.max(0, x)), y: Math.min(n - 1, Math.max(0, y)) };
}

/**
 * The tile mix: two tiles of each zoom 4–7 among those covering the NC extent (all of them
 * where fewer), then tiles at z10–z14 under random points of the extent; no tile twice.
 */
function tileMix(count: number, seed = 16): Tile[] {
  const random = rng(seed);
  const out: Tile[] = [];
  const seen = new Set<string>();
  const add = (t: Tile) => {
    const k = `${t.z}/${t.x}/${t.y}`;
    if (seen.has(k)) return false;
    seen.add(k);
    out.push(t);
    return true;
  };
  for (let z = 4; z <= 7; z++) {
    const a = tileAt(NC.minX, NC.maxY, z);
    const b = tileAt(NC.maxX, NC.minY, z);
    const covering: Tile[] = [];
    for (let x = a.x; x <= b.x; x++) for (let y = a.y; y <= b.y; y++) covering.push({ z, x, y });
    for (let i = 0; i < 2 && covering.length > 0; i++) add(covering.splice(Math.floor(random() * covering.length), 1)[0]!);
  }
  while (out.length < count) {
    const z = 10 + Math.floor(random() * 5);
    add(tileAt(NC.minX + random() * (NC.maxX - NC.minX), NC.minY + random() * (NC.maxY - NC.minY), z));
  }
  return out.slice(0, count);
}

function quantile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}
const sum = (values: readonly number[]) => values.reduce((s, v) => s + v, 0);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** ogr2ogr's PostgreSQL side (our own throwaway server; the app never builds such a string). */
function pgTarget(c: PgTestCluster): { target: string; env: NodeJS.ProcessEnv } {
  return {
    target: `PG:host=${c.host} port=${c.port} dbname=${c.database} user=${c.user}`,
    env: { ...ENV, PGPASSWORD: c.password, PG_USE_COPY: 'YES' },
  };
}

function ogr(args: string[], env: NodeJS.ProcessEnv): void {
  execFileSync('ogr2ogr', args, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

async function tileBench(
  dir: string,
  cluster: PgTestCluster,
  call: (z: number, x: number, y: number, source: string) => Promise<{ pbf: Uint8Array; kept: number; dropped: number }>,
  prepare: (source: string) => Promise<{ cached: boolean; count: number }>,
): Promise<{ server: TileSample[]; local: TileSample[]; tiles: Tile[] }> {
  const tiles = tileMix(TILES);
  const zs = tiles.map((t) => t.z);
  console.log(
    `\n== Tiles: ${tiles.length} tiles of points_1m (seed 16): ${zs.filter((z) => z <= 7).length} at z4–z7, ` +
      `${zs.filter((z) => z >= 10).length} at z10–z14; fields ${FIELDS.join(', ')}; feature cap ${int(TILE_FEATURE_CAP)} per tile`,
  );

  // (b)'s GeoPackage: the same table, exported by ogr2ogr (untimed).
  const { target, env } = pgTarget(cluster);
  const gpkg = path.join(dir, 'points_1m.gpkg');
  const exportMs = await timeIt(() =>
    ogr(['-f', 'GPKG', gpkg, target, 'public.points_1m', '-nln', 'points_1m', '-lco', 'GEOMETRY_NAME=geom'], env),
  );
  const source = `${gpkg}|layername=points_1m`;
  const prepareMs = await timeIt(async () => {
    const p = await prepare(source);
    console.log(
      `local: exported to ${path.basename(gpkg)} in ${seconds(exportMs)}; prepare_vector: ${int(p.count)} features, cached copy ${p.cached}`,
    );
  });
  console.log(`local: display.prepare_vector took ${seconds(prepareMs)} (untimed below)`);

  // (a)'s session and table description, made once as the app's tile service does.
  const client: pg.Client = await cluster.admin();
  try {
    const d = await describePgInput(client, { schema: 'public', table: 'points_1m' });
    const cols = await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'points_1m' ORDER BY ordinal_position`,
    );
    const table: PgTileTable = { ...d, columns: cols.rows.map((r) => r.name) };
    console.log(`server: public.points_1m, SRID ${table.srid}, key ${table.keyColumn}, geometry ${d.geometryType}; one session`);

    // One warm-up tile on each path, outside the set.
    const warm = tileAt(-79, 35.5, 9);
    await pgVectorTile(client, table, FIELDS, warm.z, warm.x, warm.y);
    await call(warm.z, warm.x, warm.y, source);

    const server: TileSample[] = tiles.map(() => ({ ms: Infinity, kept: 0, dropped: 0, bytes: 0 }));
    const local: TileSample[] = tiles.map(() => ({ ms: Infinity, kept: 0, dropped: 0, bytes: 0 }));
    const methods: Record<string, number> = {};
    for (let run = 1; run <= RUNS; run++) {
      for (let i = 0; i < tiles.length; i++) {
        const { z, x, y } = tiles[i]!;
        const sides = [
          async () => {
            const t0 = performance.now();
            const r = await pgVectorTile(client, table, FIELDS, z, x, y);
            const t = performance.now() - t0;
            if (run === 1) methods[r.method] = (methods[r.method] ?? 0) + 1;
            const s = server[i]!;
            server[i] = { ms: Math.min(s.ms, t), kept: r.kept, dropped: r.dropped, bytes: r.pbf.byteLength };
          },
          async () => {
            const t0 = performance.now();
            const r = await call(z, x, y, source);
            const t = performance.now() - t0;
            const s = local[i]!;
            local[i] = { ms: Math.min(s.ms, t), kept: r.kept, dropped: r.dropped, bytes: r.pbf.byteLength };
          },
        ];
        // Alternate which path goes first, so neither always follows the other's reads.
        if ((i + run) % 2 === 0) sides.reverse();
        for (const side of sides) await side();
      }
    }
    console.log(
      `server tile methods: ${Object.entries(methods)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    return { server, local, tiles };
  } finally {
    await client.end().catch(() => undefined);
  }
}

function tileSummary(label: string, s: TileSample[]) {
  const times = s.map((t) => t.ms);
  return {
    label,
    median: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    total: sum(times),
    keptMean: sum(s.map((t) => t.kept)) / s.length,
    keptMax: Math.max(...s.map((t) => t.kept)),
    bytes: sum(s.map((t) => t.bytes)),
    bytesMedian: quantile(
      s.map((t) => t.bytes),
      0.5,
    ),
  };
}

type TileStats = ReturnType<typeof tileSummary>;

/** The per-group table (all tiles, zoomed-out, zoomed-in), server beside local; returns each group's two summaries. */
function printTileStats(
  tiles: Tile[],
  server: TileSample[],
  local: TileSample[],
): Record<string, { s: TileStats; l: TileStats; n: number }> {
  const groups: [string, (t: Tile) => boolean][] = [
    ['all', () => true],
    ['z4–z7', (t) => t.z <= 7],
    ['z10–z14', (t) => t.z >= 10],
  ];
  const out: Record<string, { s: TileStats; l: TileStats; n: number }> = {};
  console.log(
    '\n| tiles | path | median | p95 | total | features/tile mean (max) | bytes total (median) | server ÷ local (median, total) |\n|---|---|---|---|---|---|---|---|',
  );
  for (const [name, pick] of groups) {
    const idx = tiles.map((t, i) => (pick(t) ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) continue;
    const s = tileSummary(
      'server',
      idx.map((i) => server[i]!),
    );
    const l = tileSummary(
      'local',
      idx.map((i) => local[i]!),
    );
    out[name] = { s, l, n: idx.length };
    for (const t of [s, l]) {
      const ratio = t === s ? `${(s.median / l.median).toFixed(2)}, ${(s.total / l.total).toFixed(2)}` : '';
      console.log(
        `| ${name} (${idx.length}) | ${t.label} | ${ms(t.median)} | ${ms(t.p95)} | ${ms(t.total)} | ${int(t.keptMean)} (${int(t.keptMax)}) | ${int(t.bytes)} (${int(t.bytesMedian)}) | ${ratio} |`,
      );
    }
  }
  return out;
}

runWorkerBench('postgis', async (dir, client) => {
  console.log(`Machine: ${cpus().length} cores; load average at start ${load()} — other work may run`);
  const ncGpkg = requireFixture('nc.gpkg');
  const t0 = performance.now();
  const started = await startPgTestCluster({ ncGpkg, points: true });
  if ('skip' in started) {
    console.log(`PostGIS bench skipped: ${started.skip}`);
    return;
  }
  const cluster = started;
  try {
    console.log(
      `PostgreSQL ${cluster.version} test cluster on 127.0.0.1:${cluster.port}, up with points_1m in ${seconds(performance.now() - t0)} ` +
        `(${Object.entries(cluster.timings)
          .map(([k, v]) => `${k} ${v} s`)
          .join(', ')})`,
    );
    {
      const admin = await cluster.admin();
      const v = await admin.query<{ v: string }>('SELECT postgis_full_version() AS v');
      console.log(
        `PostGIS: ${/POSTGIS="([^"]+)"/.exec(v.rows[0]!.v)?.[1] ?? v.rows[0]!.v}; GEOS ${/GEOS="([^"]+)"/.exec(v.rows[0]!.v)?.[1] ?? '?'}`,
      );
      await admin.end();
    }

    // ---- 1. Tiles -------------------------------------------------------------------------
    const tiles = await tileBench(
      dir,
      cluster,
      (z, x, y, source) => client.call('display.vector_tile', { source, z, x, y, fields: FIELDS }),
      (source) => client.call('display.prepare_vector', { source }),
    );
    const groups = printTileStats(tiles.tiles, tiles.server, tiles.local);
    const { s: ts, l: tl } = groups.all!;
    console.log(
      `Ratio server / local tiles: median ${(ts.median / tl.median).toFixed(2)}×, p95 ${(ts.p95 / tl.p95).toFixed(2)}×, total ${(ts.total / tl.total).toFixed(2)}×`,
    );

    // ---- 2. Buffer ------------------------------------------------------------------------
    console.log(`\n== Buffer: ~${int(FEATURES)} polygons, ${DISTANCE} m, ${SEGMENTS} segments per quarter circle, no dissolve`);
    const { pieces, count } = await preparePieces(dir, FEATURES);
    const { target, env } = pgTarget(cluster);
    const admin = await cluster.admin();
    try {
      const loadMs = await timeIt(async () => {
        ogr(
          [
            '-f',
            'PostgreSQL',
            target,
            pieces,
            'pieces',
            '-nln',
            'pieces',
            '-lco',
            'GEOMETRY_NAME=geom',
            '-lco',
            'FID=fid',
            '-lco',
            'SPATIAL_INDEX=GIST',
          ],
          env,
        );
        await admin.query('ANALYZE public.pieces');
        await admin.query(`CREATE SCHEMA ${OUTPUT_SCHEMA}`);
      });
      const d = await describePgInput(admin, { schema: 'public', table: 'pieces' });
      const srs = await admin.query<{ srtext: string }>('SELECT srtext FROM spatial_ref_sys WHERE srid = $1', [d.srid]);
      const projected = /^PROJCS|^PROJCRS/.test(srs.rows[0]?.srtext ?? '');
      console.log(
        `Loaded into PostGIS with ogr2ogr + ANALYZE in ${seconds(loadMs)} (untimed): public.pieces, SRID ${d.srid} ` +
          `(${projected ? 'projected' : 'NOT projected'}: ${/^\w+\["([^"]+)"/.exec(srs.rows[0]?.srtext ?? '')?.[1] ?? '?'}), ` +
          `${d.geometryType}, key ${d.keyColumn}; output schema ${OUTPUT_SCHEMA}`,
      );
      if (!projected) throw new Error('the pieces are not in a projected CRS: a metre buffer would be meaningless');

      const spec: PgConnectionSpec = {
        id: 'bench',
        name: 'bench cluster',
        host: cluster.host,
        port: cluster.port,
        database: cluster.database,
        user: cluster.user,
        sslmode: 'disable',
        outputSchema: OUTPUT_SCHEMA,
      };
      const connections = {
        get: (id: string) => (id === spec.id ? spec : null),
        password: (id: string) => (id === spec.id ? cluster.password : null),
      };

      // Warm the worker (GDAL loaded) and the server's cache of the input before timing.
      await client.call('layers.describe', { source: pieces });
      await admin.query('SELECT count(*), sum(ST_NPoints(geom)) FROM public.pieces');

      const out = (run: number) => path.join(dir, `worker_${run}.gpkg`);
      const best = { push: Infinity, worker: Infinity };
      let pushTable = '';
      let pushCount = 0;
      for (let run = 1; run <= RUNS; run++) {
        const sides = {
          push: async () => {
            const r = await runPushdownCall(connections, {
              connectionId: spec.id,
              algorithm: 'buffer',
              tables: [{ schema: 'public', table: 'pieces' }],
              params: { distance: DISTANCE, segments: SEGMENTS, dissolve: false },
              outputName: `buffered_${run}`,
            });
            pushTable = `${r.output.schema}.${r.output.table}`;
            pushCount = r.featureCount;
            if (r.notes.length) console.log(`  push-down notes: ${r.notes.join('; ')}`);
          },
          worker: () =>
            client.call('processing.run', {
              algorithm: 'buffer',
              params: { input: `${pieces}|layername=pieces`, distance: DISTANCE, segments: SEGMENTS, dissolve: false },
              output: `${out(run)}|layername=buffered`,
            }),
        };
        const order: (keyof typeof sides)[] = run % 2 === 1 ? ['push', 'worker'] : ['worker', 'push'];
        const line: string[] = [];
        for (const side of order) {
          const t = await timeIt(sides[side]);
          best[side] = Math.min(best[side], t);
          line.push(`${side === 'push' ? 'push-down' : 'worker'} ${seconds(t)}`);
        }
        console.log(`run ${run}: ${line.join(', ')}`);
      }

      // Both did the same work: same features, same total area.
      const pgOut = (
        await admin.query<{ n: string; area: number }>(`SELECT count(*)::text AS n, sum(ST_Area(geom)) AS area FROM ${pushTable}`)
      ).rows[0]!;
      const w = outputSummary(out(RUNS));
      const pgArea = Number(pgOut.area);
      const rel = Math.abs(pgArea - w.area) / Math.max(Math.abs(w.area), 1e-12);
      const sameCount = Number(pgOut.n) === w.count && pushCount === w.count;
      console.log(
        `Outputs: push-down ${pushTable} ${int(Number(pgOut.n))} features (reported ${int(pushCount)}), ${(pgArea / 1e6).toFixed(3)} km²; ` +
          `worker ${w.text}; input ${int(count)} polygons`,
      );
      console.log(
        `Check: counts ${sameCount ? 'equal' : 'DIFFER'}; total area relative difference ${rel.toExponential(2)} ` +
          `(${rel <= 1e-6 ? 'within' : 'OUTSIDE'} 1e-6)`,
      );
      console.log(`Ratio push-down / worker buffer: ${(best.push / best.worker).toFixed(2)}×`);

      // ---- Summary --------------------------------------------------------------------------
      console.log(
        `\n== Summary (all measured in this one process run; best of ${RUNS}; load average now ${load()}; ${cpus().length} cores shared with whatever else runs)`,
      );
      console.log('| measure | PostGIS | local worker | PostGIS ÷ local |\n|---|---|---|---|');
      console.log(
        `| tile median (${tiles.tiles.length} tiles) | ${ms(ts.median)} | ${ms(tl.median)} | ${(ts.median / tl.median).toFixed(2)} |`,
      );
      for (const g of ['z4–z7', 'z10–z14']) {
        const r = groups[g];
        if (r)
          console.log(`| tile median, ${g} (${r.n}) | ${ms(r.s.median)} | ${ms(r.l.median)} | ${(r.s.median / r.l.median).toFixed(2)} |`);
      }
      console.log(`| tile p95 | ${ms(ts.p95)} | ${ms(tl.p95)} | ${(ts.p95 / tl.p95).toFixed(2)} |`);
      console.log(`| tiles total | ${ms(ts.total)} | ${ms(tl.total)} | ${(ts.total / tl.total).toFixed(2)} |`);
      console.log(`| features per tile, mean | ${int(ts.keptMean)} | ${int(tl.keptMean)} | ${(ts.keptMean / tl.keptMean).toFixed(2)} |`);
      console.log(`| tile bytes, total | ${int(ts.bytes)} | ${int(tl.bytes)} | ${(ts.bytes / tl.bytes).toFixed(2)} |`);
      console.log(
        `| buffer of ${int(count)} polygons (best of ${RUNS}) | ${seconds(best.push)} | ${seconds(best.worker)} | ${(best.push / best.worker).toFixed(2)} |`,
      );
      console.log(
        `\nRatios: tiles server / local ${(ts.median / tl.median).toFixed(2)}× (median), ${(ts.total / tl.total).toFixed(2)}× (total); ` +
          `buffer push-down / worker ${(best.push / best.worker).toFixed(2)}× (area check ${rel.toExponential(2)}, counts ${sameCount ? 'equal' : 'differ'})`,
      );
      if (!sameCount || rel > 1e-6) process.exitCode = 1;
    } finally {
      await admin.end().catch(() => undefined);
    }
  } finally {
    await cluster.stop();
  }
});
