/**
 * The processing algorithms, run in the real worker process on real data, checked with GDAL's
 * own command-line tools (ogrinfo -json) and with geometry facts, never with our own output.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ALGORITHMS } from '../../../src-shared/processing/catalogue.js';
import { type GisWorkerClient, WorkerRequestError } from '../../worker-host/GisWorkerClient.js';
import { fixture, skipReason, workerSuite } from '../testSupport.js';
import { featureCountOf, ogrNumber, ogrSo } from './algorithmTestKit.js';
import { ALGORITHM_RUNS } from './index.js';

test('every catalogue algorithm has a worker implementation and vice versa', () => {
  assert.deepEqual(Object.keys(ALGORITHM_RUNS).sort(), ALGORITHMS.map((a) => a.id).sort());
});

describe('processing algorithms in the worker', { skip: skipReason }, () => {
  let client: GisWorkerClient;
  const { tmp } = workerSuite((started) => (client = started));

  test('reproject: nc.gpkg (NAD27) → UTM 17N keeps all 100 counties and their attributes', async () => {
    const out = path.join(tmp.dir, 'nc_utm.gpkg');
    const progress: number[] = [];
    const result = await client.call(
      'processing.run',
      { algorithm: 'reproject', params: { input: fixture('nc.gpkg'), target_crs: 'EPSG:32617' }, output: `${out}|layername=nc_utm` },
      { onProgress: (f) => progress.push(f) },
    );
    assert.equal(result.featureCount, 100);
    assert.equal(featureCountOf(out, 'nc_utm'), 100);
    assert.match(ogrSo(out, 'nc_utm'), /UTM zone 17N/);
    assert.ok(progress.length > 0 && progress.at(-1)! <= 1, 'progress was reported');
    // Mecklenburg County (Charlotte) covers about 1,410 km² (546 sq mi).
    const area = ogrNumber(out, "SELECT ST_Area(geom) / 1e6 AS a FROM nc_utm WHERE NAME = 'Mecklenburg'");
    assert.ok(area > 1300 && area < 1500, `Mecklenburg ≈ 1,400 km² in UTM; got ${area}`);
    const attrs = ogrNumber(out, "SELECT BIR74 AS b FROM nc_utm WHERE NAME = 'Mecklenburg'");
    const source = ogrNumber(fixture('nc.gpkg'), `SELECT BIR74 AS b FROM "nc.gpkg" WHERE NAME = 'Mecklenburg'`);
    assert.equal(attrs, source, 'attributes kept (BIR74 of Mecklenburg)');
  });

  test('buffer: 1 km around the reprojected counties grows each one; dissolve gives one feature', async () => {
    const src = path.join(tmp.dir, 'nc_utm.gpkg');
    const out = path.join(tmp.dir, 'nc_buf.gpkg');
    const result = await client.call('processing.run', {
      algorithm: 'buffer',
      params: { input: `${src}|layername=nc_utm`, distance: 1000, segments: 8, dissolve: false },
      output: `${out}|layername=nc_buf`,
    });
    assert.equal(result.featureCount, 100);
    const before = ogrNumber(src, "SELECT ST_Area(geom) AS a FROM nc_utm WHERE NAME = 'Wake'");
    const after = ogrNumber(out, "SELECT ST_Area(geom) AS a FROM nc_buf WHERE NAME = 'Wake'");
    const perimeter = ogrNumber(src, "SELECT ST_Perimeter(geom) AS p FROM nc_utm WHERE NAME = 'Wake'");
    // A convex-ish shape grows by about perimeter × d + π d²; allow for concavities.
    const expected = before + perimeter * 1000 + Math.PI * 1e6;
    assert.ok(Math.abs(after - expected) / expected < 0.03, `Wake grows by ~perimeter×1 km: ${after} vs ${expected}`);

    const dissolved = await client.call('processing.run', {
      algorithm: 'buffer',
      params: { input: `${src}|layername=nc_utm`, distance: 1000, segments: 4, dissolve: true },
      output: `${path.join(tmp.dir, 'nc_dis.gpkg')}|layername=nc_dis`,
    });
    assert.equal(dissolved.featureCount, 1);
  });

  test('buffer refuses a layer in degrees with a readable error', async () => {
    await assert.rejects(
      client.call('processing.run', {
        algorithm: 'buffer',
        params: { input: fixture('countries.fgb'), distance: 5000, segments: 8, dissolve: false },
        output: `${path.join(tmp.dir, 'bad.gpkg')}|layername=bad`,
      }),
      (err: unknown) => err instanceof WorkerRequestError && err.code === 'bad_input' && /degrees/.test(err.message),
    );
  });
});
