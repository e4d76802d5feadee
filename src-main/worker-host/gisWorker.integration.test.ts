/**
 * The real worker process, forked the way the web host does it, against real files: bad input
 * must come back as readable `bad_input` errors from a worker that stays up; a killed worker
 * must cost one request, not the client.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fixture, gdalCli, skipReason, WORKER_ENTRY, workerSuite } from '../gis-worker/testSupport.js';
import { makeWorkerSpawn } from './workerSpawn.js';
import { forkLauncher } from './forkLauncher.js';
import { type GisWorkerClient, WorkerCrashedError, WorkerRequestError } from './GisWorkerClient.js';

describe('GIS worker process', { skip: skipReason }, () => {
  let client: GisWorkerClient;
  const { tmp } = workerSuite((started) => (client = started));

  async function badInput(source: string): Promise<string> {
    try {
      await client.call('layers.describe', { source });
    } catch (err) {
      assert.ok(err instanceof WorkerRequestError, `expected WorkerRequestError, got ${err}`);
      assert.equal(err.code, 'bad_input', err.message);
      return err.message;
    }
    assert.fail(`${source} was accepted`);
  }

  test('describes a file and reports the GDAL version', async () => {
    const info = await client.call('layers.describe', { source: fixture('nc.gpkg') });
    assert.equal(info.featureCount, 100);
    const cli = /GDAL (\d+\.\d+\.\d+)/.exec(gdalCli('gdalinfo', ['--version']))?.[1];
    assert.equal(client.gdalVersion, cli);
  });

  test('tile bytes cross the process boundary as a Uint8Array PNG', async () => {
    const png = await client.call('display.raster_tile', {
      source: fixture('elev.tif'),
      z: 10,
      x: 529,
      y: 348,
      style: { type: 'grey', band: 1, min: null, max: null },
    });
    assert.ok(png instanceof Uint8Array);
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  });

  test('GeoJSON text comes back whole, with throttled progress', async () => {
    const progress: number[] = [];
    const text = await client.call('display.geojson', { source: fixture('countries.fgb') }, { onProgress: (f) => progress.push(f) });
    assert.equal(JSON.parse(text).features.length, 179);
    assert.ok(progress.length > 0 && progress.length < 179, `${progress.length} progress messages`);
    assert.ok(progress.every((f) => f >= 0 && f <= 1));
  });

  test('every kind of bad input is a readable bad_input, and the worker stays up', async () => {
    const pid = client.workerPid;
    const missing = path.join(tmp.dir, 'rivers.gpkg');
    assert.equal(await badInput(missing), `File not found: ${missing}`);

    const empty = path.join(tmp.dir, 'empty.gpkg');
    writeFileSync(empty, '');
    assert.equal(await badInput(empty), `Not a GIS file GDAL can read: ${empty} (0 bytes)`);

    const textShp = path.join(tmp.dir, 'notes.shp');
    writeFileSync(textShp, 'These are my field notes, not a shapefile.\n');
    assert.match(await badInput(textShp), /^Not a GIS file GDAL can read: .*notes\.shp \(43 bytes\)/);

    const broken = path.join(tmp.dir, 'broken.geojson');
    writeFileSync(broken, '{"type": "FeatureCollection", "features": [\n  {"type": "Feature" "properties": {}, "geometry": null}\n]}\n');
    const brokenMsg = await badInput(broken);
    assert.match(brokenMsg, /broken\.geojson/);
    assert.match(brokenMsg, /invalid JSON.*line 2/);

    assert.match(await badInput(fixture('truncated.tiff')), /truncated\.tiff.*damaged or incomplete/);

    assert.equal(
      await badInput(`${fixture('nc.gpkg')}|layername=rivers`),
      `No layer named 'rivers' in ${fixture('nc.gpkg')}; layers: nc.gpkg`,
    );
    assert.equal(client.workerPid, pid, 'same worker process throughout');
    assert.equal((await client.call('layers.describe', { source: fixture('elev.tif') })).kind, 'raster');
  });

  test('cancel: the request rejects at once and the worker remains usable', async () => {
    const ac = new AbortController();
    const p = client.call('display.geojson', { source: fixture('ne_110m_admin_0_countries.json') }, { signal: ac.signal });
    await new Promise((r) => setTimeout(r, 5));
    const t0 = Date.now();
    ac.abort();
    await assert.rejects(p, (err: Error) => err.name === 'AbortError');
    assert.ok(Date.now() - t0 < 50, `rejected after ${Date.now() - t0} ms`);
    assert.equal((await client.call('layers.describe', { source: fixture('scot_BNG.shp') })).featureCount, 56);
  });

  test('SIGKILL mid-request: WorkerCrashedError, then a fresh worker serves the next request', async () => {
    const pid = client.workerPid!;
    assert.ok(pid);
    const p = client.call('display.geojson', { source: fixture('ne_110m_admin_0_countries.json') });
    process.kill(pid, 'SIGKILL');
    await assert.rejects(p, (err: unknown) => {
      assert.ok(err instanceof WorkerCrashedError);
      assert.match(
        err.message,
        /^The GIS worker stopped while loading the features of .*ne_110m_admin_0_countries\.json; it has been restarted$/,
      );
      return true;
    });
    const info = await client.call('layers.describe', { source: fixture('L7_ETMs.tif') });
    assert.equal(info.bands.length, 6);
    assert.notEqual(client.workerPid, pid);
  });
});

describe('GIS worker process, raw protocol', { skip: skipReason }, () => {
  test('malformed and unknown messages are answered or ignored, never fatal', async () => {
    const channel = forkLauncher(WORKER_ENTRY, ['--import', 'tsx'])(makeWorkerSpawn());
    const inbox: Record<string, unknown>[] = [];
    let wake: (() => void) | null = null;
    channel.onMessage((m) => {
      inbox.push(m as Record<string, unknown>);
      wake?.();
    });
    const next = async (): Promise<Record<string, unknown>> => {
      while (inbox.length === 0) await new Promise<void>((r) => (wake = r));
      return inbox.shift()!;
    };
    let exited = false;
    channel.onExit(() => (exited = true));
    try {
      assert.equal((await next()).type, 'ready');
      channel.send({ type: 'request', id: 5, request: { fn: 'processing.reproject', args: { source: 'x' } } });
      const reply = await next();
      assert.equal(reply.type, 'error');
      assert.equal(reply.id, 5);
      assert.equal(reply.code, 'internal');
      assert.match(String(reply.message), /Malformed message/);
      channel.send('hello');
      channel.send({ type: 'cancel', id: 999 });
      // Main checks parameters before it sends; the worker checks them again all the same.
      channel.send({ type: 'request', id: 7, request: { fn: 'layers.describe', args: { source: '' } } });
      const refused = await next();
      assert.equal(refused.type, 'error');
      assert.equal(refused.code, 'bad_input');
      assert.match(String(refused.message), /^Invalid arguments for layers\.describe: source: /);
      channel.send({ type: 'request', id: 6, request: { fn: 'layers.describe', args: { source: fixture('elev.tif') } } });
      const ok = await next();
      assert.equal(ok.type, 'result');
      assert.equal(ok.id, 6);
      assert.equal(exited, false);
    } finally {
      channel.kill();
    }
  });
});
