/**
 * The processing algorithms, run in the real worker process on real data, checked with GDAL's
 * own command-line tools (ogrinfo -json) and with geometry facts, never with our own output.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ALGORITHMS } from '../../../src-shared/processing/catalogue.js';
import { forkLauncher } from '../../worker-host/forkLauncher.js';
import { GisWorkerClient, WorkerRequestError } from '../../worker-host/GisWorkerClient.js';
import { fixture, gdalCli, makeTempDir, REPO_ROOT, skipReason } from '../testSupport.js';
import { ALGORITHM_RUNS } from './index.js';

const ENTRY = path.join(REPO_ROOT, 'src-main', 'gis-worker', 'workerMain.ts');

/** ogrinfo -so as text (GDAL 3.6 has no -json for ogrinfo): feature count and CRS WKT. */
function ogrSummary(source: string, layer: string): { featureCount: number; text: string } {
  const text = gdalCli('ogrinfo', ['-so', source, layer]);
  const m = /Feature Count: (\d+)/.exec(text);
  return { featureCount: m ? Number(m[1]) : -1, text };
}

function sqlValue(source: string, sql: string): number {
  const out = gdalCli('ogrinfo', ['-q', '-dialect', 'SQLite', '-sql', sql, source]);
  const m = /=\s*(-?[\d.eE+-]+)\s*$/m.exec(out);
  if (!m) throw new Error(`no value in: ${out}`);
  return Number(m[1]);
}

test('every catalogue algorithm has a worker implementation and vice versa', () => {
  assert.deepEqual(Object.keys(ALGORITHM_RUNS).sort(), ALGORITHMS.map((a) => a.id).sort());
});

describe('processing algorithms in the worker', { skip: skipReason }, () => {
  const tmp = makeTempDir();
  let client: GisWorkerClient;
  before(() => {
    client = new GisWorkerClient(forkLauncher(ENTRY, ['--import', 'tsx']));
  });
  after(() => {
    client.dispose();
    tmp.cleanup();
  });

  test('reproject: nc.gpkg (NAD27) → UTM 17N keeps all 100 counties and their attributes', async () => {
    const out = path.join(tmp.dir, 'nc_utm.gpkg');
    const progress: number[] = [];
    const result = await client.request(
      { op: 'runAlgorithm', algorithm: 'reproject', params: { input: fixture('nc.gpkg'), target_crs: 'EPSG:32617' }, output: `${out}|layername=nc_utm` },
      { onProgress: (f) => progress.push(f) },
    );
    assert.equal(result.featureCount, 100);
    const info = ogrSummary(out, 'nc_utm');
    assert.equal(info.featureCount, 100);
    assert.match(info.text, /UTM zone 17N/);
    assert.ok(progress.length > 0 && progress.at(-1)! <= 1, 'progress was reported');
    // Mecklenburg County (Charlotte) covers about 1,410 km² (546 sq mi).
    const area = sqlValue(out, "SELECT ST_Area(geom) / 1e6 AS a FROM nc_utm WHERE NAME = 'Mecklenburg'");
    assert.ok(area > 1300 && area < 1500, `Mecklenburg ≈ 1,400 km² in UTM; got ${area}`);
    const attrs = sqlValue(out, "SELECT BIR74 AS b FROM nc_utm WHERE NAME = 'Mecklenburg'");
    const source = sqlValue(fixture('nc.gpkg'), `SELECT BIR74 AS b FROM "nc.gpkg" WHERE NAME = 'Mecklenburg'`);
    assert.equal(attrs, source, 'attributes kept (BIR74 of Mecklenburg)');
  });

  test('buffer: 1 km around the reprojected counties grows each one; dissolve gives one feature', async () => {
    const src = path.join(tmp.dir, 'nc_utm.gpkg');
    const out = path.join(tmp.dir, 'nc_buf.gpkg');
    const result = await client.request({
      op: 'runAlgorithm',
      algorithm: 'buffer',
      params: { input: `${src}|layername=nc_utm`, distance: 1000, segments: 8, dissolve: false },
      output: `${out}|layername=nc_buf`,
    });
    assert.equal(result.featureCount, 100);
    const before = sqlValue(src, "SELECT ST_Area(geom) AS a FROM nc_utm WHERE NAME = 'Wake'");
    const after = sqlValue(out, "SELECT ST_Area(geom) AS a FROM nc_buf WHERE NAME = 'Wake'");
    const perimeter = sqlValue(src, "SELECT ST_Perimeter(geom) AS p FROM nc_utm WHERE NAME = 'Wake'");
    // A convex-ish shape grows by about perimeter × d + π d²; allow for concavities.
    const expected = before + perimeter * 1000 + Math.PI * 1e6;
    assert.ok(Math.abs(after - expected) / expected < 0.03, `Wake grows by ~perimeter×1 km: ${after} vs ${expected}`);

    const dissolved = await client.request({
      op: 'runAlgorithm',
      algorithm: 'buffer',
      params: { input: `${src}|layername=nc_utm`, distance: 1000, segments: 4, dissolve: true },
      output: `${path.join(tmp.dir, 'nc_dis.gpkg')}|layername=nc_dis`,
    });
    assert.equal(dissolved.featureCount, 1);
  });

  test('buffer refuses a layer in degrees with a readable error', async () => {
    await assert.rejects(
      client.request({
        op: 'runAlgorithm',
        algorithm: 'buffer',
        params: { input: fixture('countries.fgb'), distance: 5000, segments: 8, dissolve: false },
        output: `${path.join(tmp.dir, 'bad.gpkg')}|layername=bad`,
      }),
      (err: unknown) => err instanceof WorkerRequestError && err.code === 'bad_input' && /degrees/.test(err.message),
    );
  });
});
