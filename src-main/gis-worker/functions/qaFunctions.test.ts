import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nodataCountByText, polygonLayer, rasterWithNodata } from '../../qa/qaTestData.js';
import type { GisWorkerClient } from '../../worker-host/GisWorkerClient.js';
import { fixture, gdalCli, skipReason, workerSuite } from '../testSupport.js';

describe('qa.check_layer (the real worker)', { skip: skipReason }, () => {
  let worker: GisWorkerClient;
  const { tmp } = workerSuite((w) => (worker = w), 'mapwright-qa-');

  test('counts the bow-ties among valid squares and names the first five fids', async () => {
    const source = polygonLayer(tmp.dir, 'ties', { valid: 3, invalid: 7, epsg: 32632, at: [500000, 5000000] });
    const check = await worker.call('qa.check_layer', { source });
    assert.equal(check.kind, 'vector');
    if (check.kind !== 'vector') return;
    assert.deepEqual(check.invalid, { count: 7, firstIds: [4, 5, 6, 7, 8] });
    assert.equal(check.read, 10);
    assert.equal(check.capped, false);
    assert.equal(check.hasGeometry, true);
  });

  test('a layer of valid polygons has no invalid geometry; an empty layer reads 0 features', async () => {
    const valid = await worker.call('qa.check_layer', { source: fixture('nc.gpkg') });
    assert.deepEqual(valid.kind === 'vector' && valid.invalid, { count: 0, firstIds: [] });
    assert.equal(valid.kind === 'vector' && valid.read, 100);
    const empty = await worker.call('qa.check_layer', { source: polygonLayer(tmp.dir, 'none', { valid: 0, invalid: 0, epsg: 4326 }) });
    assert.deepEqual(empty, { kind: 'vector', read: 0, hasGeometry: true, invalid: { count: 0, firstIds: [] }, capped: false });
  });

  test('stops at maxFeatures and says it was capped', async () => {
    const source = polygonLayer(tmp.dir, 'many', { valid: 4, invalid: 6, epsg: 32632 });
    const check = await worker.call('qa.check_layer', { source, maxFeatures: 6 });
    assert.deepEqual(check.kind === 'vector' && [check.read, check.capped, check.invalid.count], [6, true, 2]);
    // Exactly at the size of the layer: everything was read, nothing capped.
    const all = await worker.call('qa.check_layer', { source, maxFeatures: 10 });
    assert.deepEqual(all.kind === 'vector' && [all.read, all.capped], [10, false]);
  });

  test('counts each band’s nodata exactly, as GDAL’s own text export of the file does', async () => {
    const file = rasterWithNodata(tmp.dir, 'strip', { cols: 40, rows: 30, nodataCols: 10 });
    const check = await worker.call('qa.check_layer', { source: file });
    assert.deepEqual(check, { kind: 'raster', width: 40, height: 30, bands: [{ band: 1, counted: 1200, nodata: 300 }], capped: false });
    assert.equal(nodataCountByText(file), 300);
    const elev = await worker.call('qa.check_layer', { source: fixture('elev.tif') });
    assert.equal(elev.kind === 'raster' && elev.bands[0]!.nodata, nodataCountByText(fixture('elev.tif')));
  });

  test('a raster without nodata counts none per band; a pixel cap leaves the rest uncounted', async () => {
    const rgb = await worker.call('qa.check_layer', { source: fixture('rgb-byte-tenth.tif') });
    assert.equal(rgb.kind, 'raster');
    if (rgb.kind !== 'raster') return;
    const info = JSON.parse(gdalCli('gdalinfo', ['-json', fixture('rgb-byte-tenth.tif')])) as { size: [number, number]; bands: unknown[] };
    assert.equal(rgb.bands.length, info.bands.length);
    assert.ok(rgb.bands.every((b) => b.counted === info.size[0] * info.size[1]));
    // 2,000 × 1,000 pixels are read in two strips: a cap of one pixel stops after the first.
    const big = `${tmp.dir}/big.tif`;
    gdalCli('gdal_create', ['-of', 'GTiff', '-ot', 'Byte', '-outsize', '2000', '1000', '-burn', '1', big]);
    const capped = await worker.call('qa.check_layer', { source: big, maxPixels: 1 });
    assert.equal(capped.kind === 'raster' && capped.capped, true);
    assert.ok(capped.kind === 'raster' && capped.bands[0]!.counted > 0 && capped.bands[0]!.counted < 2_000_000);
    const small = await worker.call('qa.check_layer', { source: fixture('elev.tif'), maxPixels: 1 });
    assert.equal(small.kind === 'raster' && small.capped, false, 'one strip holds the whole raster: nothing left uncounted');
  });

  test('a missing file is bad input naming it; a source the worker never opens is refused', async () => {
    await assert.rejects(worker.call('qa.check_layer', { source: `${tmp.dir}/nope.gpkg` }), /nope\.gpkg/);
    await assert.rejects(worker.call('qa.check_layer', { source: '/vsimem/planted.tif' }), /vsimem|refused|not allowed/i);
    await assert.rejects(worker.call('qa.check_layer', { source: 'relative/path.gpkg' }), /relative|absolute|refused|not allowed/i);
    await assert.rejects(worker.call('qa.check_layer', { source: fixture('elev.tif'), maxFeatures: 0 }), /maxFeatures/);
  });
});
