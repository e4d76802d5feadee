import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import { compileTerrain } from '../../src-shared/style/compileTerrain.js';
import type { RasterStyle } from '../../src-shared/style/styleModel.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { createDataRoutes, DATA_ROUTES } from './dataRoutes.js';
import { TileCache } from './tileCache.js';

const dir = mkdtempSync(join(tmpdir(), 'mapwright-dem-route-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const source = join(dir, 'dem.tif');
writeFileSync(source, 'not really a GeoTIFF: the worker is a stub');

const layer = {
  id: 'R1',
  name: 'dem',
  source,
  sublayer: null,
  kind: 'raster',
  visible: true,
  opacity: 1,
  style: { type: 'grey', band: 1, min: null, max: null } as RasterStyle,
  info: { extent4326: [5.7, 49.4, 6.5, 50.2], bands: [{ index: 1, dataType: 'Float32', nodata: null, min: 199.48, max: 502.66 }] },
} as unknown as Layer & { style: RasterStyle };
const store = { layers: { get: (id: string) => (id === layer.id ? layer : undefined) } } as unknown as ProjectStore;
const egress = { openFor: () => () => {} };

/** A worker stub that records each call's function and answers a distinct body. */
function stubWorker() {
  const calls: { fn: string; args: Record<string, unknown> }[] = [];
  const worker = {
    call: async (fn: string, args: Record<string, unknown>) => {
      calls.push({ fn, args });
      return new Uint8Array([0x89, 0x50, 0x4e, 0x47, calls.length]);
    },
  } as unknown as GisWorkerClient;
  return { worker, calls };
}

describe('DEM tile route', () => {
  it('serves the URL the terrain compiler makes, band 1, cached apart from the colour tiles', async () => {
    layer.style = { type: 'grey', band: 1, min: null, max: null, terrain: { exaggeration: 2, hillshade: true, pitch: 60 } };
    const template = (compileTerrain(layer, { data: (p) => p })!.source as { tiles: string[] }).tiles[0]!;
    const path = template.replace('{z}/{x}/{y}', '10/530/350');
    assert.deepEqual(DATA_ROUTES.demTile.exec(path)?.slice(1), ['R1', '10', '530', '350'], path);
    assert.equal(DATA_ROUTES.demTile.exec('tiles/R1/demx/1/0/0.png'), null);

    const { worker, calls } = stubWorker();
    const serve = createDataRoutes(store, worker, dir, egress, new TileCache());
    const dem = await serve(path);
    assert.equal(dem.status, 200);
    assert.equal(dem.contentType, 'image/png');
    assert.deepEqual(calls[0], { fn: 'display.dem_tile', args: { source, band: 1, ground: 199, z: 10, x: 530, y: 350 } });
    // The colour tile of the same z/x/y is its own entry, rendered without the terrain settings.
    const colour = await serve('tiles/R1/s-abc/10/530/350.png');
    assert.equal(calls[1]!.fn, 'display.raster_tile');
    assert.deepEqual(calls[1]!.args.style, { type: 'grey', band: 1, min: null, max: null });
    assert.notDeepEqual(colour.body, dem.body);
    // Again: both from the cache; switching the terrain off keeps the colour tile cached.
    await serve(path);
    layer.style = { type: 'grey', band: 1, min: null, max: null };
    await serve('tiles/R1/s-abc/10/530/350.png');
    assert.equal(calls.length, 2);
  });

  it('answers 404 for an id not in the project', async () => {
    const { worker } = stubWorker();
    const serve = createDataRoutes(store, worker, dir, egress, null);
    assert.equal((await serve('tiles/NOPE/dem/1/0/0.png')).status, 404);
  });
});
