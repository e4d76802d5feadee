/**
 * Network map sources end to end in main (issue #13): the whole app (services, real GIS
 * worker, egress gate) against loopback servers this file starts — an XYZ tile server, a WMS,
 * and a range-request server for a COG and a FlatGeobuf. Their origin is allowed past the
 * SSRF guard the way a person allows a local server (MAPWRIGHT_ALLOW_ORIGINS).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { ToolResult } from '../../src-shared/tools/toolResult.js';
import { fixtures, haveFixtures, startApp } from '../composition/testApp.js';
import { decodePng } from '../gis-worker/testSupport.js';
import { startSourceTestServer, TILE_COLOUR, WMS_COLOUR, type SourceTestServer } from './sourceTestServers.js';

const skip = !haveFixtures || !existsSync(`${fixtures}/cogeo.tif`) ? 'the shared GIS fixtures are not installed' : false;

describe('layers.add_web_source: network map sources through the dialog, remembered per origin', { skip }, () => {
  let server: SourceTestServer;
  let other: SourceTestServer;
  let app: Awaited<ReturnType<typeof startApp>>;
  const before0 = process.env.MAPWRIGHT_ALLOW_ORIGINS;

  before(async () => {
    server = await startSourceTestServer({ 'cogeo.tif': `${fixtures}/cogeo.tif`, 'countries.fgb': `${fixtures}/countries.fgb` });
    other = await startSourceTestServer();
    process.env.MAPWRIGHT_ALLOW_ORIGINS = `${server.origin},${other.origin}`;
    app = await startApp(null);
  });
  after(async () => {
    if (before0 === undefined) delete process.env.MAPWRIGHT_ALLOW_ORIGINS;
    else process.env.MAPWRIGHT_ALLOW_ORIGINS = before0;
    await app.services.close();
    await server.close();
    await other.close();
  });

  /** Runs the tool as the person; answers the dialog (if one comes) with `decision`. */
  async function add(params: Record<string, unknown>, decision: 'approve' | 'reject' | 'none' = 'approve') {
    const asked: ApprovalRequest[] = [];
    const seen = app.events.length;
    const running = app.services.runForPerson('layers.add_web_source', params);
    let result: ToolResult | null = null;
    void running.then((r) => (result = r));
    if (decision !== 'none') {
      const request = await app.waitFor(
        () =>
          result ? null : (app.events.slice(seen).find((e) => e.name === 'approval/requested')?.payload as ApprovalRequest | undefined),
        'the approval dialog',
      );
      if (request) {
        asked.push(request);
        await app.services.invoke('tools/decide', { approvalId: request.id, decision, remember: false });
      }
    }
    const r = await running;
    for (const e of app.events.slice(seen))
      if (e.name === 'approval/requested' && !asked.includes(e.payload as ApprovalRequest)) asked.push(e.payload as ApprovalRequest);
    return { result: r, asked };
  }

  function layerNamed(name: string): Layer {
    const found = (app.events.filter((e) => e.name === 'layers/changed').pop()?.payload as { layers: Layer[] }).layers.find(
      (l) => l.name === name,
    );
    assert.ok(found, `layer ${name}`);
    return found;
  }

  async function tilePixel(layer: Layer, z: number, x: number, y: number): Promise<number[] | null> {
    const res = await app.services.serveData(`tiles/${layer.id}/${z}/${x}/${y}.png`);
    if (res.status !== 200) return null;
    const png = decodePng(res.body as Uint8Array);
    const i = (128 * png.width + 128) * png.channels;
    return [...png.data.subarray(i, i + png.channels)];
  }

  it('an XYZ source: the dialog names the origin, the layer paints, and the origin is remembered', async () => {
    const { result, asked } = await add({ kind: 'xyz', url: `${server.origin}/tiles/{z}/{x}/{y}.png`, name: 'tiles', max_zoom: 12 });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0]!.network, [server.origin + '']);
    assert.equal(asked[0]!.preview?.origin, server.origin);
    assert.ok(
      server.hits.some((h) => /^GET \/tiles\/\d+\/\d+\/\d+\.png$/.test(h)),
      'GDAL read tiles through the gate',
    );

    // Display reads happen outside any call: the granted origin stays open for the layer.
    const layer = layerNamed('tiles');
    const px = await tilePixel(layer, 3, 4, 3);
    assert.ok(px, 'a tile was rendered');
    assert.deepEqual(px.slice(0, 3), [...TILE_COLOUR]);
  });

  it('a second source from the same origin asks nothing more of the person (their GUI action)', async () => {
    const { result, asked } = await add(
      { kind: 'tms', url: `${server.origin}/tiles/{z}/{x}/{y}.png`, name: 'tms tiles', max_zoom: 10 },
      'none',
    );
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(asked.length, 0);
  });

  it('a WMS source: GDAL asks GetMap in Web Mercator with the layer name, and the layer paints', async () => {
    const { result, asked } = await add({ kind: 'wms', url: `${other.origin}/wms`, layer: 'roads', name: 'wms', max_zoom: 12 });
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(asked[0]!.network, [other.origin]);
    const layer = layerNamed('wms');
    const px = await tilePixel(layer, 2, 1, 1);
    assert.ok(px);
    assert.deepEqual(px.slice(0, 3), [...WMS_COLOUR]);
    const q = other.wmsRequests.at(-1)!;
    assert.equal(q.get('SERVICE'), 'WMS');
    assert.equal(q.get('REQUEST'), 'GetMap');
    assert.equal(q.get('LAYERS'), 'roads');
    assert.equal(q.get('SRS'), 'EPSG:3857');
    assert.match(q.get('FORMAT') ?? '', /png/);
    assert.equal(q.get('BBOX')?.split(',').length, 4);
  });

  it('a COG and a FlatGeobuf over range requests (already-granted origin: no dialog)', async () => {
    const cog = await add({ kind: 'cog', url: `${server.origin}/files/cogeo.tif`, name: 'cog' }, 'none');
    assert.ok(cog.result.ok, JSON.stringify(cog.result));
    const fgb = await add({ kind: 'fgb', url: `${server.origin}/files/countries.fgb`, name: 'fgb' }, 'none');
    assert.ok(fgb.result.ok, JSON.stringify(fgb.result));
    assert.equal(layerNamed('fgb').kind, 'vector');
    assert.equal(layerNamed('cog').kind, 'raster');
    assert.equal(layerNamed('cog').source, `/vsicurl/${server.origin}/files/cogeo.tif`);
    assert.ok(server.hits.some((h) => h.startsWith('GET /files/cogeo.tif')));
    const geo = await app.services.serveData(`data/layers/${layerNamed('fgb').id}.geojson`);
    assert.equal(geo.status, 200);
    assert.ok(JSON.parse(String(geo.body)).features.length > 100);
  });

  it('revoking the origin closes it for display too', async () => {
    const layer = layerNamed('tiles');
    // The project file is shared with the running app: revoke through a second handle on it.
    const { ProjectStore } = await import('../store/projectStore.js');
    const second = ProjectStore.openInHome(app.home);
    assert.deepEqual(second.networkOrigins.list().sort(), [server.origin, other.origin].sort());
    assert.ok(second.networkOrigins.revoke(server.origin));
    second.close();
    const hits = server.hits.length;
    assert.equal(await tilePixel(layer, 9, 300, 200), null);
    assert.equal(server.hits.length, hits, 'nothing reached the server');
  });

  it('hostile sources are refused before anything runs', async () => {
    for (const params of [
      { kind: 'xyz', url: `http://user:pw@127.0.0.1:1/{z}/{x}/{y}.png` },
      { kind: 'cog', url: 'file:///etc/passwd' },
      { kind: 'xyz', url: `${server.origin}/tiles/{z}/{x}/{y}/{s}.png` },
      { kind: 'xyz', url: `${server.origin}/tiles/{z}/{x}.png` },
      { kind: 'wms', url: `${server.origin}/wms` },
      { kind: 'cog', url: `${server.origin}/files/\${x}.tif` },
    ]) {
      const { result, asked } = await add(params, 'none');
      assert.equal(result.ok, false, JSON.stringify(params));
      assert.equal(asked.length, 0);
      if (!result.ok) assert.equal(result.error.code, 'invalid_params');
    }
  });

  it('a redirect to the cloud metadata address is not followed', async () => {
    const { result } = await add({ kind: 'cog', url: `${other.origin}/redirect/x.tif`, name: 'metadata' }, 'none');
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.error.hint ?? '', /169\.254\.169\.254/, JSON.stringify(result.error));
    assert.ok(!other.hits.some((h) => h.includes('meta-data')));
  });
});
