import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import { QaOutcome, isQaFailed, type QaReport } from '../../src-shared/domain/qaReport.js';
import { parseSource } from '../../src-shared/domain/source.js';
import { testLayer } from '../../src-shared/domain/testing/testLayer.js';
import { gdalCli, skipReason, workerSuite } from '../gis-worker/testSupport.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { buildQaReport, type QaSubject } from './buildQaReport.js';
import { polygonLayer, rasterWithNodata } from './qaTestData.js';

describe('buildQaReport: real files, the real worker', { skip: skipReason }, () => {
  let worker: GisWorkerClient;
  const { tmp, out } = workerSuite((w) => (worker = w), 'mapwright-qa-report-');
  const layers = new Map<string, Layer>();
  const project = { getLayer: (name: string) => layers.get(name) };
  const gdal = { call: ((fn, args, opts) => worker.call(fn, args, opts)) as GisWorkerClient['call'] };

  /** Adds `source` to the fake project as `name`, described by the worker as main does. */
  async function add(name: string, source: string): Promise<Layer> {
    const info = await worker.call('layers.describe', { source });
    const { path: file, sublayer } = parseSource(source);
    const layer = testLayer({ id: `id-${name}`, name, source: file, sublayer, kind: info.kind, info });
    layers.set(name, layer);
    return layer;
  }
  const subject = (layerName: string, toolId = 'processing.run', args: unknown = {}, signal = new AbortController().signal): QaSubject => ({
    layerName,
    tool: { def: { id: toolId } },
    args,
    signal,
  });
  async function report(s: QaSubject): Promise<QaReport> {
    const outcome = await buildQaReport({ project, gdal }, s);
    assert.ok(QaOutcome.safeParse(outcome).success, JSON.stringify(outcome));
    assert.ok(!isQaFailed(outcome), JSON.stringify(outcome));
    return outcome;
  }
  const codes = (r: QaReport) => r.warnings.map((w) => w.code);

  test('bow-tie polygons: invalid geometries counted with their first fids, nothing else to say', async () => {
    await add('fields', polygonLayer(tmp.dir, 'fields', { valid: 2, invalid: 0, epsg: 32632, at: [500000, 5000000] }));
    await add('fields_out', polygonLayer(tmp.dir, 'fields_out', { valid: 2, invalid: 3, epsg: 32632, at: [500000, 5000000] }));
    const r = await report(
      subject('fields_out', 'processing.run', { algorithm: 'field_calculator', params: { input: 'fields', expression: 'n * 2' } }),
    );
    assert.deepEqual(r.invalidGeometries, { count: 3, firstIds: [3, 4, 5] });
    assert.deepEqual(codes(r), ['invalid_geometries']);
    assert.equal(r.features, 5);
    assert.equal(r.crs, 'EPSG:32632');
    assert.ok(r.instruction);
  });

  test('an empty output is said to be empty', async () => {
    await add('nothing', polygonLayer(tmp.dir, 'nothing', { valid: 0, invalid: 0, epsg: 32632 }));
    const r = await report(subject('nothing'));
    assert.deepEqual(codes(r), ['empty_output']);
    assert.equal(r.features, 0);
  });

  test('a buffer of 10 on a layer in degrees: a distance in degrees, and an output far larger than its input', async () => {
    const towns = out('towns.csv');
    writeFileSync(towns, 'name,lon,lat\nA,9.0,45.0\nB,9.1,45.05\n');
    gdalCli('ogr2ogr', [
      '-f',
      'GPKG',
      '-a_srs',
      'EPSG:4326',
      '-nln',
      'towns',
      '-oo',
      'X_POSSIBLE_NAMES=lon',
      '-oo',
      'Y_POSSIBLE_NAMES=lat',
      out('towns.gpkg'),
      towns,
    ]);
    await add('towns', `${out('towns.gpkg')}|layername=towns`);
    // What a buffer of "10" makes on degrees: discs 10° wide.
    gdalCli('ogr2ogr', [
      '-f',
      'GPKG',
      '-dialect',
      'SQLite',
      '-sql',
      'SELECT ST_Buffer(geom, 10) AS geom, name FROM towns',
      '-nln',
      'towns_buffer',
      out('buffer.gpkg'),
      out('towns.gpkg'),
    ]);
    await add('towns_buffer', `${out('buffer.gpkg')}|layername=towns_buffer`);
    const r = await report(subject('towns_buffer', 'processing.run', { algorithm: 'buffer', params: { input: 'towns', distance: 10 } }));
    assert.deepEqual(codes(r), ['distance_in_degrees', 'extent_much_larger']);
    assert.match(r.warnings[0]!.message, /distance = 10 was applied in degrees \('towns', 'towns_buffer' are in degrees\)/);
  });

  test('a planar ST_Area in SQL saved from a layer in degrees is an area in degrees', async () => {
    await add('towns_area', `${out('towns.gpkg')}|layername=towns`);
    const r = await report(
      subject('towns_area', 'inspect.save_query', { sql: 'SELECT *, ST_Area(geom) AS a FROM towns', name: 'towns_area' }),
    );
    assert.deepEqual(codes(r), ['area_in_degrees']);
  });

  test('a raster: its nodata share per band from an exact count; all nodata is empty; no CRS is said', async () => {
    await add('strip', rasterWithNodata(tmp.dir, 'strip', { cols: 40, rows: 30, nodataCols: 10 }));
    const r = await report(subject('strip'));
    assert.deepEqual(r.nodataShare, [{ band: 1, share: 0.25, count: 300 }]);
    assert.equal(r.pixels, 1200);
    assert.deepEqual(r.warnings, []);
    assert.equal(r.instruction, undefined);

    await add('void', rasterWithNodata(tmp.dir, 'void', { cols: 20, rows: 10, nodataCols: 20 }));
    assert.deepEqual(codes(await report(subject('void'))), ['empty_output']);

    const bare = out('bare.tif');
    gdalCli('gdal_create', ['-of', 'GTiff', '-outsize', '8', '8', '-burn', '3', bare]);
    const noCrs = await report(subject((await add('bare', bare)).name));
    assert.deepEqual(codes(noCrs), ['no_crs']);
    assert.equal(noCrs.crs, null);
  });

  test('never throws: a file gone, a layer gone and a stopped call each come back as one line', async () => {
    const gone = await add('gone', polygonLayer(tmp.dir, 'gone', { valid: 1, invalid: 0, epsg: 32632 }));
    rmSync(gone.source);
    const failed = await buildQaReport({ project, gdal }, subject('gone'));
    assert.ok(isQaFailed(failed));
    assert.match(failed.failed, /^QA check failed: .*gone\.gpkg/);
    assert.deepEqual(await buildQaReport({ project, gdal }, subject('never_loaded')), {
      layer: 'never_loaded',
      failed: 'QA check not made: the layer is no longer in the project.',
    });
    const stop = new AbortController();
    stop.abort();
    assert.deepEqual(await buildQaReport({ project, gdal }, subject('strip', 'processing.run', {}, stop.signal)), {
      layer: 'strip',
      failed: 'QA check not made: the call was stopped.',
    });
    // Stopped while the worker reads: the worker's call is cancelled, the report says so.
    const big = out('big.tif');
    gdalCli('gdal_create', [
      '-of',
      'GTiff',
      '-ot',
      'Float32',
      '-outsize',
      '6000',
      '6000',
      '-burn',
      '1',
      '-a_srs',
      'EPSG:32632',
      '-a_ullr',
      '0',
      '60000',
      '60000',
      '0',
      big,
    ]);
    await add('big', big);
    const midway = new AbortController();
    const running = buildQaReport({ project, gdal }, subject('big', 'processing.run', {}, midway.signal));
    setTimeout(() => midway.abort(), 20);
    assert.deepEqual(await running, { layer: 'big', failed: 'QA check stopped with the call.' });
  });
});
