/**
 * processing_run with the raster catalogue's kinds of layer params: several layers in one param
 * (mosaic, raster calculator), an optional one left out (clip_raster's mask), and params that must
 * name a raster or a vector whatever the output is (zonal statistics: polygons + raster → vector).
 * Fake handles: what is checked is what reaches the worker, and what is refused before it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expectRefusal } from '../expectRefusal.js';
import { fakeLayer } from '../toolTestFakes.js';
import { runAlgorithmHarness } from './runAlgorithmTestKit.js';

const LUX: [number, number, number, number] = [5.7, 49.4, 6.5, 50.2];
const layer = (id: string, kind: 'vector' | 'raster', source: string, sublayer: string | null = null) =>
  fakeLayer({
    name: id,
    kind,
    source,
    sublayer,
    info: { extent: LUX, extent4326: LUX, geometryType: kind === 'vector' ? 'Polygon' : null, featureCount: kind === 'vector' ? 12 : null },
  });

const LAYERS = [
  layer('dem_west', 'raster', '/data/west.tif'),
  layer('dem_east', 'raster', '/data/east.tif'),
  layer('cantons', 'vector', '/data/lux.gpkg', 'cantons'),
];

const harness = () => runAlgorithmHarness(LAYERS, (req) => ({ output: req.output, featureCount: null, notes: [] }));

describe('processing_run with raster algorithms', () => {
  test('an array of layers reaches the worker as an array of sources', async () => {
    const { run } = harness();
    const { prepared, request } = await run({ algorithm: 'mosaic', params: { inputs: ['dem_west', 'dem_east'] } });
    assert.deepEqual(request.params.inputs, ['/data/west.tif', '/data/east.tif']);
    assert.equal(request.output, '/outputs/dem_west_mosaic.tif');
    assert.equal(prepared.preview?.input, 'dem_west');
  });

  test('an optional layer param left out is skipped; given, it resolves with its sublayer', async () => {
    const { run } = harness();
    const bbox = await run({ algorithm: 'clip_raster', params: { input: 'dem_west', bbox: [6, 49.6, 6.2, 49.8] } });
    assert.equal(bbox.request.params.mask, undefined);
    assert.equal(bbox.request.params.input, '/data/west.tif');
    const masked = await run({ algorithm: 'clip_raster', params: { input: 'dem_west', mask: 'cantons' } });
    assert.equal(masked.request.params.mask, '/data/lux.gpkg|layername=cantons');
  });

  test('a vector output may take a raster where the algorithm says so (zonal statistics, contours)', async () => {
    const { run } = harness();
    const zonal = await run({ algorithm: 'zonal_statistics', params: { zones: 'cantons', raster: 'dem_west' } });
    assert.deepEqual([zonal.request.params.zones, zonal.request.params.raster], ['/data/lux.gpkg|layername=cantons', '/data/west.tif']);
    assert.equal(zonal.request.output, '/outputs/cantons_zonal_statistics.gpkg|layername=cantons_zonal_statistics');
    const contours = await run({ algorithm: 'contours', params: { input: 'dem_west', interval: 10 } });
    assert.equal(contours.request.params.input, '/data/west.tif');
  });

  test('the wrong kind of layer, or a bad expression, is refused before the dialog', async () => {
    const { run } = harness();
    const swapped = await expectRefusal(run({ algorithm: 'zonal_statistics', params: { zones: 'dem_west', raster: 'cantons' } }));
    assert.equal(swapped.code, 'invalid_params');
    assert.match(swapped.message, /params\.zones: zonal_statistics needs a vector layer; 'dem_west' is a raster/);
    const shade = await expectRefusal(run({ algorithm: 'hillshade', params: { input: 'cantons' } }));
    assert.match(shade.message, /params\.input: hillshade needs a raster layer; 'cantons' is a vector/);
    const resample = await expectRefusal(run({ algorithm: 'resample', params: { input: 'cantons', resolution: 10 } }));
    assert.match(resample.message, /params\.input: resample needs a raster layer; 'cantons' is a vector/);
    const mosaic = await expectRefusal(run({ algorithm: 'mosaic', params: { inputs: ['dem_west', 'cantons'] } }));
    assert.match(mosaic.message, /params\.inputs: mosaic needs a raster layer; 'cantons' is a vector/);
    const calc = await expectRefusal(run({ algorithm: 'raster_calculator', params: { inputs: ['dem_west'], expression: 'A1 + B1' } }));
    assert.match(calc.message, /B1 refers to input B, but only 1 input/);
    const clip = await expectRefusal(run({ algorithm: 'clip_raster', params: { input: 'dem_west' } }));
    assert.match(clip.message, /give exactly one of bbox or mask/);
  });
});
