/**
 * web.fetch, web.download and osm.download against loopback servers this file starts (a small
 * site and a fake Overpass), with the real GIS worker writing and reading the files. The
 * loopback origins are allowed as a person would allow a local server; everything else keeps
 * the guard's public-only rule.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gdal } from '../gis-worker/gdal.js';
import type { GdalHandle, ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { createGdalHandle } from '../composition/gdalHandle.js';
import { E2E_FIXTURES, startWorker } from '../gis-worker/testSupport.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { OVERPASS_SETTING } from './osmQuery.js';
import { type FakeOverpass, startFakeOverpass } from './testing/fakeOverpass.js';
import { PAGE_HTML, SAMPLE_JSON, startWebSite, type WebSite } from './testing/webSite.js';
import { createWebTools, type WebToolDeps } from './webTools.js';

type Outcome =
  | { ok: true; data: any; preview: Record<string, unknown> | undefined } // eslint-disable-line @typescript-eslint/no-explicit-any -- reads of tool payloads
  | { ok: false; stage: 'input' | 'prepare' | 'execute'; code: string; message: string; hint?: string };

describe('web tools against loopback servers', () => {
  const outputs = mkdtempSync(join(tmpdir(), 'mapwright-web-tools-'));
  let site: WebSite;
  let overpass: FakeOverpass;
  let worker: GisWorkerClient;
  let gdalHandle: GdalHandle;
  const settings = new Map<string, unknown>();
  let tools: ToolDefinition[];
  const project = {
    outputPath: (base: string, ext: string) => {
      for (let n = 1; ; n++) {
        const p = join(outputs, `${base}${n === 1 ? '' : `_${n}`}.${ext}`);
        if (!existsSync(p)) return p;
      }
    },
  } as unknown as ProjectHandle;

  const build = (extra: Partial<WebToolDeps> = {}) =>
    createWebTools({
      outputsDir: () => outputs,
      allowedOrigins: new Set([site.origin, overpass.origin]),
      store: { settings: { get: <T>(key: string, fallback: T) => (settings.has(key) ? (settings.get(key) as T) : fallback) } },
      env: {},
      limits: { fetchTimeoutMs: 1500 },
      ...extra,
    });

  before(async () => {
    site = await startWebSite({ gpkg: join(E2E_FIXTURES, 'world.gpkg') });
    overpass = await startFakeOverpass();
    worker = startWorker();
    gdalHandle = createGdalHandle(worker);
    settings.set(OVERPASS_SETTING, overpass.endpoint);
    tools = build();
  });
  after(async () => {
    await site.close();
    await overpass.close();
    worker.dispose();
    rmSync(outputs, { recursive: true, force: true });
  });

  async function call(id: string, raw: unknown, within: ToolDefinition[] = tools): Promise<Outcome> {
    const def = within.find((t) => t.id === id)!;
    const parsed = def.input.safeParse(raw);
    if (!parsed.success)
      return { ok: false, stage: 'input', code: 'invalid_params', message: parsed.error.issues.map((i) => i.message).join('; ') };
    const ctx = {
      handles: { project, gdal: gdalHandle },
      caller: 'model' as const,
      signal: new AbortController().signal,
      progress: () => {},
    };
    let stage: 'prepare' | 'execute' = 'prepare';
    try {
      const prepared = def.prepare ? await def.prepare(parsed.data, ctx as never) : { args: parsed.data };
      stage = 'execute';
      const data = await def.execute(prepared.args, ctx as never);
      return { ok: true, data, preview: prepared.preview };
    } catch (error) {
      if (!(error instanceof ToolFailure)) throw error;
      return { ok: false, stage, code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
    }
  }
  const failed = (o: Outcome) => {
    assert.equal(o.ok, false, JSON.stringify(o));
    return o as Extract<Outcome, { ok: false }>;
  };
  const succeeded = (o: Outcome) => {
    assert.equal(o.ok, true, JSON.stringify(o));
    return o as Extract<Outcome, { ok: true }>;
  };

  it('declares the permissions: every tool is network without origins (asks every call); fetch reads, the others write', () => {
    const byId = Object.fromEntries(tools.map((t) => [t.id, t]));
    assert.deepEqual(Object.keys(byId).sort(), ['osm.download', 'web.download', 'web.fetch']);
    for (const t of tools) {
      assert.equal(t.network, true, t.id);
      assert.equal(t.origins, undefined, `${t.id} declares no origins: never remembered`);
    }
    assert.equal(byId['web.fetch']!.safety, 'read');
    assert.equal(byId['web.download']!.safety, 'write');
    assert.equal(byId['osm.download']!.safety, 'write');
    assert.match(byId['web.fetch']!.description, /There is no web search/);
  });

  it('web.fetch: an HTML page as readable text with its title and sparse links; the dialog shows the URL and resolved host', async () => {
    const r = succeeded(await call('web.fetch', { url: `${site.origin}/page.html` }));
    assert.deepEqual(r.preview, { url: `${site.origin}/page.html`, 'resolved host': '127.0.0.1' });
    assert.equal(r.data.kind, 'html');
    assert.equal(r.data.title, 'Flood zones of Riverton');
    assert.match(r.data.text, /FLOOD ZONES/i);
    assert.match(r.data.text, /The zones layer was updated in 2026\./);
    assert.match(r.data.text, /Zone A: 1% annual chance/);
    assert.doesNotMatch(r.data.text, /do not read scripts|color: red|Menu|http/);
    assert.deepEqual(r.data.links, [
      { text: 'zones layer', url: `${site.origin}/data/zones.geojson` },
      { text: 'the agency', url: 'https://example.org/about' },
    ]);
    assert.equal(r.data.truncated, false);
    assert.ok(PAGE_HTML.length > r.data.total_chars);
  });

  it('web.fetch: a long page is cut at 8,000 characters with its total length; a same-origin redirect is followed', async () => {
    const long = succeeded(await call('web.fetch', { url: `${site.origin}/long.html` }));
    assert.equal(long.data.truncated, true);
    assert.ok(long.data.total_chars > 50_000);
    assert.ok(long.data.text.length < 8_100);
    assert.match(long.data.text, /more characters\]$/);
    const moved = succeeded(await call('web.fetch', { url: `${site.origin}/to-page` }));
    assert.equal(moved.data.url, `${site.origin}/page.html`);
    assert.equal(moved.data.title, 'Flood zones of Riverton');
  });

  it('web.fetch: JSON parsed, large JSON cut with an outline; a GIS file or a binary is sent to web_download or refused', async () => {
    const small = succeeded(await call('web.fetch', { url: `${site.origin}/data.json` }));
    assert.deepEqual(small.data.json, SAMPLE_JSON);
    const big = succeeded(await call('web.fetch', { url: `${site.origin}/big.json` }));
    assert.equal(big.data.truncated, true);
    assert.deepEqual(big.data.outline, { type: 'object', keys: ['rows'] });
    assert.ok(big.data.json_text.length <= 8_001);
    const gis = failed(await call('web.fetch', { url: `${site.origin}/data/zones.geojson` }));
    assert.match(gis.message, /a GIS file/);
    assert.match(gis.hint!, /web_download/);
    const blob = failed(await call('web.fetch', { url: `${site.origin}/blob.bin` }));
    assert.match(blob.message, /not HTML, JSON or text/);
  });

  it('web.fetch: HTTP errors, oversized bodies and answers that never end fail with clear messages', async () => {
    const missing = failed(await call('web.fetch', { url: `${site.origin}/missing.geojson` }));
    assert.equal(missing.stage, 'execute');
    const notFound = failed(await call('web.fetch', { url: `${site.origin}/nowhere.html` }));
    assert.match(notFound.message, /answered HTTP 404.*no such page/);
    const huge = failed(await call('web.fetch', { url: `${site.origin}/huge.txt` }));
    assert.match(huge.message, /larger than 2 MiB|larger than 2/);
    assert.match(huge.hint!, /size limit/);
    const started = Date.now();
    const slow = failed(await call('web.fetch', { url: `${site.origin}/slow.html` }));
    assert.equal(slow.code, 'timeout');
    assert.match(slow.message, /within 1500 ms/);
    assert.ok(Date.now() - started < 5000);
  });

  it('hostile addresses are refused before any dialog or request: file://, /vsicurl/, metadata, loopback not allowed', async () => {
    for (const url of [
      'file:///etc/passwd',
      '/vsicurl/http://example.org/x.tif',
      'ftp://example.org/a.geojson',
      `http://user:pw@${site.origin.slice(7)}/page.html`,
    ]) {
      const r = failed(await call('web.fetch', { url }));
      assert.equal(r.stage, 'input', url);
    }
    const before = site.received.length;
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/',
      'http://localhost:9/',
      'http://[::1]:9/',
      'http://127.0.0.1:9/',
    ]) {
      const r = failed(await call('web.fetch', { url }));
      assert.equal(r.stage, 'prepare', url);
      assert.equal(r.code, 'not_allowed', url);
      assert.match(r.message, /Refused/);
    }
    const dl = failed(await call('web.download', { url: 'http://169.254.169.254/latest/user-data' }));
    assert.equal(dl.stage, 'prepare');
    assert.equal(site.received.length, before, 'no request left');
  });

  it('redirects to a private or metadata address are refused when followed', async () => {
    const meta = failed(await call('web.fetch', { url: `${site.origin}/to-metadata` }));
    assert.equal(meta.stage, 'execute');
    assert.equal(meta.code, 'not_allowed');
    assert.match(meta.message, /169\.254\.169\.254/);
    const other = failed(await call('web.fetch', { url: `${site.origin}/redirect?to=${encodeURIComponent(overpass.endpoint)}` }));
    assert.equal(other.code, 'not_allowed', 'another allowed private origin is not reachable by a redirect');
    assert.match(other.message, new RegExp(overpass.origin.replace(/[.:/]/g, '\\$&')));
    assert.equal(overpass.received.length, 0);
    const priv = failed(await call('web.download', { url: `${site.origin}/to-private` }));
    assert.match(priv.message, /10\.0\.0\.7/);
    assert.equal(readdirSync(outputs).length, 0, 'nothing saved');
  });

  it('web.download: GeoJSON saved under a fresh name and loaded; the first bytes tell a file without extension', async () => {
    const first = succeeded(await call('web.download', { url: `${site.origin}/data/zones.geojson` }));
    assert.deepEqual(first.preview, { url: `${site.origin}/data/zones.geojson`, 'resolved host': '127.0.0.1', 'saved into': outputs });
    assert.equal(first.data.saved, join(outputs, 'zones.geojson'));
    assert.equal(first.data.load_layers.length, 1);
    assert.equal(first.data.load_layers[0].info.featureCount, 2);
    const again = succeeded(await call('web.download', { url: `${site.origin}/data/zones.geojson` }));
    assert.equal(again.data.saved, join(outputs, 'zones-2.geojson'), 'never over an existing file');
    const sniffed = succeeded(await call('web.download', { url: `${site.origin}/download`, name: 'flood_zones' }));
    assert.equal(sniffed.data.saved, join(outputs, 'flood_zones.geojson'));
    assert.equal(sniffed.data.load_layers[0].name, 'flood_zones');
  });

  it('web.download: a GeoPackage is saved and its layers listed to load', async () => {
    const r = succeeded(await call('web.download', { url: `${site.origin}/world.gpkg` }));
    assert.equal(r.data.saved, join(outputs, 'world.gpkg'));
    assert.ok(r.data.load_layers.length >= 1);
    assert.match(r.data.load_layers[0].path, /world\.gpkg\|layername=/);
    const ds = gdal.open(r.data.saved);
    try {
      assert.ok(ds.layers.get(0).features.count() > 100);
    } finally {
      ds.close();
    }
  });

  it('web.download: a page, a binary, a declared oversize and an HTTP error are refused and leave no file', async () => {
    const count = readdirSync(outputs).length;
    assert.match(failed(await call('web.download', { url: `${site.origin}/page.html` })).message, /not a GIS file/);
    assert.match(failed(await call('web.download', { url: `${site.origin}/blob.bin` })).message, /not a GIS file/);
    const big = failed(await call('web.download', { url: `${site.origin}/huge-declared.geojson` }));
    assert.match(big.message, /larger than 50 MiB|larger than 50/);
    assert.match(failed(await call('web.download', { url: `${site.origin}/missing.geojson` })).message, /HTTP 404.*Not Found/);
    const small = build({ limits: { fileMaxBytes: 1000 } });
    assert.match(failed(await call('web.download', { url: `${site.origin}/huge.txt` }, small)).message, /larger than/);
    assert.equal(readdirSync(outputs).length, count);
  });

  it('osm.download: the QL received is the safe one; the answer becomes a GeoPackage layer whose features and tags GDAL reads', async () => {
    const r = succeeded(
      await call('osm.download', {
        bbox: [13.39, 52.51, 13.42, 52.53],
        tags: [{ key: 'amenity', value: 'cafe' }],
        output_path: '/etc/evil.gpkg',
      }),
    );
    const preview = r.preview!;
    assert.equal(preview.endpoint, overpass.endpoint);
    assert.equal(preview['resolved host'], '127.0.0.1');
    assert.equal(preview.query, '[out:json][timeout:90];\nnwr["amenity"="cafe"](52.51,13.39,52.53,13.42);\nout body;\n>;\nout skel qt;');
    assert.match(String(preview['bbox area']), /^\d+(\.\d+)? km²$/);
    assert.equal(preview.output, join(outputs, 'osm_amenity_cafe.gpkg'), 'the output path is the host’s, not the model’s');

    const received = overpass.queries.at(-1)!;
    assert.equal(received.query, preview.query);
    assert.deepEqual(received.filters, [{ key: 'amenity', value: 'cafe' }]);
    assert.match(overpass.received.at(-1)!.headers['content-type']!, /application\/x-www-form-urlencoded/);

    assert.equal(r.data.feature_count, 5);
    assert.deepEqual(r.data.by_geometry, { points: 2, lines: 1, polygons: 2, other: 0 });
    assert.equal(r.data.load_layers[0].path, `${join(outputs, 'osm_amenity_cafe.gpkg')}|layername=osm_amenity_cafe`);
    assert.equal(r.data.load_layers[0].info.featureCount, 5);

    const ds = gdal.open(join(outputs, 'osm_amenity_cafe.gpkg'));
    try {
      const layer = ds.layers.get('osm_amenity_cafe');
      const rows = new Map<string, Record<string, unknown>>();
      const geometries = new Map<string, string>();
      for (const f of layer.features) {
        const fields = f.fields.toObject() as Record<string, unknown>;
        const key = `${String(fields.osm_type)}/${String(fields.osm_id)}`;
        rows.set(key, fields);
        geometries.set(key, f.getGeometry()!.name);
      }
      assert.deepEqual([...rows.keys()].sort(), ['node/1001', 'node/1002', 'relation/4001', 'way/2001', 'way/2003']);
      assert.equal(rows.get('node/1001')!.name, 'Café Einstein');
      assert.equal(rows.get('node/1001')!['name:en'], 'Einstein Coffee');
      assert.equal(rows.get('node/1001')!.cuisine, 'coffee_shop');
      assert.equal(rows.get('node/1002')!.name, 'Kaffee "Süd"');
      assert.deepEqual(JSON.parse(String(rows.get('node/1002')!.other_tags)), { Name: 'duplicate key in another case' });
      assert.equal(rows.get('way/2001')!.building, 'yes');
      assert.equal(rows.get('relation/4001')!.name, 'Hofgarten');
      assert.deepEqual(Object.fromEntries([...geometries].sort()), {
        'node/1001': 'POINT',
        'node/1002': 'POINT',
        'relation/4001': 'POLYGON',
        'way/2001': 'POLYGON',
        'way/2003': 'LINESTRING',
      });
      assert.equal(layer.srs?.getAuthorityCode(null), '4326');
    } finally {
      ds.close();
    }
  });

  it('osm.download: a tag value carrying QL reaches Overpass as one quoted string', async () => {
    const hostile = 'cafe"];out;node(1);out meta;//';
    const r = succeeded(
      await call('osm.download', { bbox: [13.39, 52.51, 13.42, 52.53], tags: [{ key: 'amenity', value: hostile }], name: 'hostile' }),
    );
    const received = overpass.queries.at(-1)!;
    assert.deepEqual(received.filters, [{ key: 'amenity', value: hostile }]);
    assert.equal(received.rest, 'out body;\n>;\nout skel qt;');
    assert.equal(r.data.load_layers[0].name, 'hostile');
    const refused = failed(await call('osm.download', { bbox: [0, 0, 1, 1], tags: [{ key: 'name', value: 'x\n);out;' }] }));
    assert.equal(refused.stage, 'input');
    const tooBig = failed(await call('osm.download', { bbox: [0, 0, 2, 2], tags: [{ key: 'building' }] }));
    assert.match(tooBig.message, /km²/);
  });

  it('osm.download: the endpoint comes from the setting, MAPWRIGHT_OVERPASS_URL overrides it, a private default is refused', async () => {
    const viaEnv = build({ env: { MAPWRIGHT_OVERPASS_URL: `${overpass.origin}/api/interpreter?from=env` } });
    const r = succeeded(await call('osm.download', { bbox: [13.39, 52.51, 13.42, 52.53], tags: [{ key: 'amenity' }] }, viaEnv));
    assert.equal(r.preview!.endpoint, `${overpass.origin}/api/interpreter?from=env`);
    assert.equal(overpass.received.at(-1)!.url, '/api/interpreter?from=env');

    const local = build({ env: { MAPWRIGHT_OVERPASS_URL: 'http://192.168.0.10/api/interpreter' } });
    const refused = failed(await call('osm.download', { bbox: [13.39, 52.51, 13.42, 52.53], tags: [{ key: 'amenity' }] }, local));
    assert.equal(refused.code, 'not_allowed');
    assert.match(refused.message, /192\.168\.0\.10/);
    const broken = build({ env: { MAPWRIGHT_OVERPASS_URL: 'file:///etc/passwd' } });
    assert.match(
      failed(await call('osm.download', { bbox: [13.39, 52.51, 13.42, 52.53], tags: [{ key: 'amenity' }] }, broken)).message,
      /not usable/,
    );
  });

  it('osm.download: no match adds nothing; a busy server, a runtime error and a wrong-shaped answer fail clearly', async () => {
    const empty = await startFakeOverpass({ version: 0.6, elements: [] });
    const odd = await startFakeOverpass({ elements: [{ type: 'way', id: 1 }] });
    const remark = await startFakeOverpass({
      elements: [],
      remark: 'runtime error: Query timed out in "query" at line 2 after 91 seconds.',
    });
    const busy = await startFakeOverpass(undefined, (_q, res) => {
      res.writeHead(429, { 'content-type': 'text/html' }).end('<p>Too many requests</p>');
      return true;
    });
    try {
      const against = (server: FakeOverpass) =>
        call(
          'osm.download',
          { bbox: [13.39, 52.51, 13.42, 52.53], tags: [{ key: 'amenity', value: 'cafe' }] },
          build({
            allowedOrigins: new Set([server.origin]),
            env: { MAPWRIGHT_OVERPASS_URL: server.endpoint },
          }),
        );
      const none = succeeded(await against(empty));
      assert.equal(none.data.feature_count, 0);
      assert.equal(none.data.load_layers, undefined);
      assert.match(failed(await against(odd)).message, /not an Overpass JSON answer/);
      const timedOut = failed(await against(remark));
      assert.match(timedOut.message, /runtime error: Query timed out/);
      const limited = failed(await against(busy));
      assert.match(limited.message, /HTTP 429.*Too many requests/);
      assert.match(limited.hint!, /busy/);
    } finally {
      await Promise.all([empty.close(), odd.close(), remark.close(), busy.close()]);
    }
  });
});
