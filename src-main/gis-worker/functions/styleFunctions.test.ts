/**
 * The style family's worker functions, run in the real worker process on real data, checked
 * against GDAL's command-line tools (ogrinfo, gdal_translate -of XYZ) and arithmetic done here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallParams, WorkerCallName } from '../../../src-shared/worker/workerCalls.js';
import { WorkerRequestError, type GisWorkerClient } from '../../worker-host/GisWorkerClient.js';
import { fixture, gdalCli, skipReason, startWorker } from '../testSupport.js';

const NC = fixture('nc.gpkg');
const COUNTRIES = fixture('ne_110m_admin_0_countries.json');

/** A field's values as ogrinfo prints them (`  BIR74 (Real) = 1091`). */
function ogrValues(file: string, sql: string, field: string, dialect: string[] = []): number[] {
  const out = gdalCli('ogrinfo', ['-q', '-ro', ...dialect, '-sql', sql, file]);
  const re = new RegExp(`^\\s+${field} \\(\\w+\\) = (.+)$`, 'gm');
  return [...out.matchAll(re)].map((m) => Number(m[1]));
}

function ogrCount(file: string, layer: string, where: string): number {
  const out = gdalCli('ogrinfo', ['-ro', '-so', '-where', where, file, layer]);
  return Number(/Feature Count: (\d+)/.exec(out)![1]);
}

/** numpy's default quantile (linear between order statistics), written out independently. */
function linearQuantile(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const i = Math.floor(h);
  return i + 1 < sorted.length ? sorted[i]! + (h - i) * (sorted[i + 1]! - sorted[i]!) : sorted[i]!;
}

describe('style worker functions', { skip: skipReason }, () => {
  let client: GisWorkerClient;
  const call = <F extends WorkerCallName>(fn: F, args: CallParams<F>) => client.call(fn, args);
  before(() => {
    client = startWorker();
  });
  after(() => client.dispose());

  test('quantile breaks of nc BIR74 equal the quantiles of the values ogrinfo reads; 20 counties per class', async () => {
    const values = ogrValues(NC, 'SELECT BIR74 FROM "nc.gpkg"', 'BIR74').sort((a, b) => a - b);
    assert.equal(values.length, 100);
    const r = await call('style.classify', { source: NC, field: 'BIR74', method: 'quantile', classes: 5 });
    const expected = [values[0]!, ...[0.2, 0.4, 0.6, 0.8].map((p) => linearQuantile(values, p)), values[99]!];
    assert.equal(r.breaks.length, 6);
    r.breaks.forEach((b, i) => assert.ok(Math.abs(b - expected[i]!) < 1e-9, `break ${i}: ${b} vs ${expected[i]}`));
    assert.deepEqual(r.counts, [20, 20, 20, 20, 20]);
    assert.equal(r.valid, 100);
    assert.equal(r.nulls, 0);
  });

  test('equal interval spans ogrinfo MIN..MAX; counts add up', async () => {
    const [min] = ogrValues(NC, 'SELECT MIN(SID79) AS lo FROM "nc.gpkg"', 'lo');
    const [max] = ogrValues(NC, 'SELECT MAX(SID79) AS hi FROM "nc.gpkg"', 'hi');
    const r = await call('style.classify', { source: NC, field: 'SID79', method: 'equal_interval', classes: 4 });
    assert.deepEqual(r.breaks, [min!, min! + (max! - min!) / 4, min! + (max! - min!) / 2, min! + (3 * (max! - min!)) / 4, max!]);
    assert.equal(
      r.counts.reduce((s, n) => s + n, 0),
      100,
    );
    // The top class: counties at or above the last inner break, counted by ogrinfo.
    assert.equal(r.counts[3], ogrCount(NC, 'nc.gpkg', `SID79 >= ${r.breaks[3]}`));
  });

  test('Jenks on nc BIR74 (4 classes) is the optimal partition: brute force over all 156,849 cuts agrees', async () => {
    const v = ogrValues(NC, 'SELECT BIR74 FROM "nc.gpkg"', 'BIR74').sort((a, b) => a - b);
    const n = v.length;
    const s1 = [0];
    const s2 = [0];
    for (const x of v) {
      s1.push(s1.at(-1)! + x);
      s2.push(s2.at(-1)! + x * x);
    }
    const ss = (i: number, j: number) => s2[j]! - s2[i]! - (s1[j]! - s1[i]!) ** 2 / (j - i); // values i..j-1
    let best = Infinity;
    for (let a = 1; a < n - 2; a++)
      for (let b = a + 1; b < n - 1; b++) for (let c = b + 1; c < n; c++) best = Math.min(best, ss(0, a) + ss(a, b) + ss(b, c) + ss(c, n));
    const r = await call('style.classify', { source: NC, field: 'BIR74', method: 'jenks', classes: 4 });
    const bounds = [0, ...r.counts.map((_, i) => r.counts.slice(0, i + 1).reduce((x, y) => x + y, 0))];
    const cost = r.counts.reduce((total, _, i) => total + ss(bounds[i]!, bounds[i + 1]!), 0);
    assert.ok(Math.abs(cost - best) / best < 1e-9, `Jenks cost ${cost} vs optimum ${best}`);
  });

  test('unique values with counts, most frequent first, as ogrinfo GROUP BY counts them', async () => {
    const r = await call('style.unique_values', { source: COUNTRIES, field: 'CONTINENT', limit: 3 });
    assert.deepEqual(
      r.values.map((v) => v.value),
      ['Africa', 'Asia', 'Europe'],
    );
    for (const v of r.values) assert.equal(v.count, ogrCount(COUNTRIES, 'ne_110m_admin_0_countries', `CONTINENT = '${v.value as string}'`));
    assert.equal(r.distinct, 8);
    assert.equal(r.otherFeatures, 177 - r.values.reduce((s, v) => s + v.count, 0));
  });

  test('rule counts follow first-match order and agree with ogrinfo -where', async () => {
    const filters = ["CONTINENT = 'Africa' and POP_EST > 50000000", "CONTINENT in ('Africa', 'Europe')"];
    const r = await call('style.count_rules', { source: COUNTRIES, filters });
    const first = ogrCount(COUNTRIES, 'ne_110m_admin_0_countries', "CONTINENT = 'Africa' AND POP_EST > 50000000");
    const either = ogrCount(COUNTRIES, 'ne_110m_admin_0_countries', "CONTINENT IN ('Africa', 'Europe')");
    assert.deepEqual(r.counts, [first, either - first]);
    assert.equal(r.unmatched, 177 - either);
  });

  test('2–98 % cut of elev.tif matches the percentiles of its pixels (gdal_translate -of XYZ), within a histogram bucket', async () => {
    const xyz = gdalCli('gdal_translate', ['-q', '-of', 'XYZ', fixture('elev.tif'), '/vsistdout/']);
    const values = xyz
      .trim()
      .split('\n')
      .map((l) => Number(l.split(' ')[2]))
      .filter((v) => v !== -32768)
      .sort((a, b) => a - b);
    const r = await call('style.raster_cut', { source: fixture('elev.tif'), bands: [1], lower: 2, upper: 98 });
    const b = r.bands[0]!;
    assert.equal(b.validPixels, values.length);
    const bucket = (b.dataMax! - b.dataMin!) / 256;
    const p2 = values[Math.floor(0.02 * values.length)]!;
    const p98 = values[Math.ceil(0.98 * values.length) - 1]!;
    assert.ok(Math.abs(b.min! - p2) <= bucket, `2 %: ${b.min} vs ${p2} (bucket ${bucket})`);
    assert.ok(Math.abs(b.max! - p98) <= bucket, `98 %: ${b.max} vs ${p98}`);
    assert.ok(b.min! > values[0]! && b.max! < values.at(-1)!, 'the cut is inside the data range');
  });

  test('the cut of each Landsat band on its own (byte data, one-unit buckets)', async () => {
    const r = await call('style.raster_cut', { source: fixture('L7_ETMs.tif'), bands: [4, 1], lower: 2, upper: 98 });
    assert.deepEqual(
      r.bands.map((b) => b.band),
      [4, 1],
    );
    for (const b of r.bands) {
      const xyz = gdalCli('gdal_translate', ['-q', '-b', String(b.band), '-of', 'XYZ', fixture('L7_ETMs.tif'), '/vsistdout/']);
      const values = xyz
        .trim()
        .split('\n')
        .map((l) => Number(l.split(' ')[2]))
        .sort((x, y) => x - y);
      assert.ok(Math.abs(b.min! - values[Math.floor(0.02 * values.length)]!) <= 1, `band ${b.band} 2 %: ${b.min}`);
      assert.ok(Math.abs(b.max! - values[Math.ceil(0.98 * values.length) - 1]!) <= 1, `band ${b.band} 98 %: ${b.max}`);
    }
  });

  test('label points: one per feature, inside it, in its widest part (Canada on the mainland), with only the asked fields', async () => {
    const text = (await call('style.label_points', { source: COUNTRIES, fields: ['NAME', 'POP_EST'] })) as string;
    const fc = JSON.parse(text) as {
      features: { properties: Record<string, unknown>; geometry: { type: string; coordinates: [number, number] } }[];
    };
    assert.equal(fc.features.length, 177);
    assert.deepEqual(Object.keys(fc.features[0]!.properties).sort(), ['NAME', 'POP_EST']);
    for (const name of ['Canada', 'France', 'Indonesia', 'United States of America', 'Chile']) {
      const f = fc.features.find((x) => x.properties.NAME === name)!;
      assert.equal(f.geometry.type, 'Point');
      const [x, y] = f.geometry.coordinates;
      // GDAL's SQL as referee: the point lies within the country polygon.
      const inside = ogrValues(
        COUNTRIES,
        `SELECT ST_Within(MakePoint(${x}, ${y}, 4326), GEOMETRY) AS w FROM ne_110m_admin_0_countries WHERE NAME = '${name}'`,
        'w',
        ['-dialect', 'SQLite'],
      );
      assert.deepEqual(inside, [1], `${name} at ${x}, ${y}`);
    }
    const canada = fc.features.find((x) => x.properties.NAME === 'Canada')!.geometry.coordinates;
    assert.ok(canada[1] < 65, `Canada's label is on the mainland, not in the Arctic islands: ${canada}`);
    const france = fc.features.find((x) => x.properties.NAME === 'France')!.geometry.coordinates;
    assert.ok(
      france[0] > -5 && france[0] < 8 && france[1] > 42 && france[1] < 51,
      `France's label is in Europe, not French Guiana: ${france}`,
    );
    // NAD27 counties come back in WGS 84 lon/lat.
    const nc = JSON.parse((await call('style.label_points', { source: NC, fields: ['NAME'] })) as string) as typeof fc;
    const meck = nc.features.find((f) => f.properties.NAME === 'Mecklenburg')!.geometry.coordinates;
    assert.ok(Math.abs(meck[0] + 80.83) < 0.2 && Math.abs(meck[1] - 35.25) < 0.2, `Mecklenburg ≈ Charlotte: ${meck}`);
  });

  test("the person's mistakes come back as bad input with what would work", async () => {
    const bad = async (fn: string, args: unknown, message: RegExp) =>
      assert.rejects(
        client.call(fn as WorkerCallName, args as never),
        (err: Error) => err instanceof WorkerRequestError && err.code === 'bad_input' && message.test(err.message),
      );
    await bad(
      'style.classify',
      { source: NC, field: 'POP', method: 'quantile', classes: 5 },
      /no field 'POP'; its fields are: AREA, PERIMETER, .*BIR74/,
    );
    await bad('style.classify', { source: fixture('elev.tif'), field: 'x', method: 'quantile', classes: 5 }, /is a raster/);
    await bad('style.raster_cut', { source: fixture('elev.tif'), bands: [2], lower: 2, upper: 98 }, /has 1 band; there is no band 2/);
    await bad('style.raster_cut', { source: NC, bands: [1], lower: 2, upper: 98 }, /is a vector layer/);
    await bad('style.count_rules', { source: COUNTRIES, filters: ['POP_EST >'] }, /rule 1: expected a number/);
    await bad(
      'style.classify',
      { source: NC, field: 'BIR74', method: 'median', classes: 5 },
      /^Invalid arguments for style\.classify: method: /,
    );
    await bad('style.label_points', { source: NC, fields: ['NAME', 'nope'] }, /no field 'nope'/);
  });
});
