/**
 * The inspect and layers tools through main's dispatcher (as the person, with input given to main),
 * with the real project store and GIS worker: multi-layer loading, tables, rename, SQL and its
 * write twin, and the refusals `prepare` gives before anything runs.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { haveFixtures, root, startApp } from './testApp.js';

const own = (name: string) => join(root, 'e2e', 'fixtures', 'gis', name);
type Result = { ok: boolean; data?: any; error?: { code: string; message: string; hint?: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads of tool payloads

describe('inspect and layers tools in main', { skip: !haveFixtures }, () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  const run = (entry: string, params: Record<string, unknown>) => app.services.runForPerson(entry, params) as Promise<Result>;
  before(async () => {
    process.env.GDAL_PAM_ENABLED = 'NO';
    app = await startApp(null);
  });
  after(async () => {
    await app.services.close();
    rmSync(app.home, { recursive: true, force: true });
  });

  it('a GPX without a sublayer loads its first layer with features and lists the others', async () => {
    const r = await run('layers.load', { path: own('test_trk2.gpx') });
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.data.layer.name, 'tracks');
    assert.equal(r.data.layer.feature_count, 2);
    assert.deepEqual(
      r.data.other_sublayers.map((s: { name: string }) => s.name),
      ['waypoints', 'routes', 'route_points', 'track_points'],
    );
    assert.match(r.data.note, /first with features/);
    const all = await run('layers.load', { path: own('test_trk2.gpx'), all_sublayers: true });
    assert.deepEqual(
      all.data.layers.map((l: { name: string }) => l.name),
      ['tracks_2', 'track_points'],
    );
    assert.deepEqual(all.data.skipped_empty, ['waypoints', 'routes', 'route_points']);
  });

  it('a statistics CSV loads as a table (kept after a reload of the project list), renamed, then joined in SQL', async () => {
    const t = await run('layers.load', { path: own('worldbank_df.csv') });
    assert.equal(t.data.layer.kind, 'table');
    assert.equal(t.data.layer.feature_count, 177);
    const w = await run('layers.load', { path: own('world.gpkg') });
    assert.equal(w.data.layer.kind, 'vector');
    const listed = await run('inspect.list_layers', {});
    assert.equal(listed.data.layers.find((l: { name: string }) => l.name === 'worldbank_df').kind, 'table');

    const clash = await run('layers.rename', { layer: 'worldbank_df', name: 'world' });
    assert.equal(clash.error?.code, 'invalid_params');
    const renamed = await run('layers.rename', { layer: 'worldbank_df', name: 'world bank' });
    assert.deepEqual([renamed.data.old_name, renamed.data.name], ['worldbank_df', 'world bank']);

    const q = await run('inspect.sql', {
      sql: 'SELECT w.name_long, b.HDI FROM world w JOIN "world bank" b ON b.iso_a2 = w.iso_a2 WHERE w.name_long = \'Namibia\'',
    });
    assert.deepEqual(q.data.rows, [{ name_long: 'Namibia', HDI: 0.606 }]);
    const zoomTable = await run('layers.zoom_to', { layer: 'world bank' });
    assert.equal(zoomTable.error?.code, 'invalid_params');
  });

  it('SQL refuses a non-SELECT in prepare; save_query writes a new layer into the outputs folder and loads it', async () => {
    const refused = await run('inspect.sql', { sql: 'DROP TABLE world' });
    assert.equal(refused.error?.code, 'invalid_params');
    assert.match(refused.error!.hint!, /inspect_save_query/);
    const saved = await run('inspect.save_query', {
      sql: 'SELECT w.name_long, b.HDI, w.geom FROM world w JOIN "world bank" b ON b.iso_a2 = w.iso_a2 WHERE w.continent = \'Africa\'',
      name: 'africa_hdi',
    });
    assert.equal(saved.ok, true, JSON.stringify(saved.error));
    assert.match(saved.data.output, /outputs\/africa_hdi\.gpkg\|layername=africa_hdi$/);
    const layers = (await run('inspect.list_layers', {})).data.layers as { name: string; kind: string; feature_count: number }[];
    const loaded = layers.find((l) => l.name === 'africa_hdi')!;
    assert.deepEqual([loaded.kind, loaded.feature_count], ['vector', saved.data.feature_count]);
  });

  it('query, extent, info and sampling tools: results and refusals', async () => {
    const badField = await run('inspect.query_features', { layer: 'world', fields: ['nome'] });
    assert.equal(badField.error?.code, 'invalid_params');
    assert.match(badField.error!.hint!, /name_long/);
    const badCrs = await run('inspect.extent', { layer: 'world', crs: 'EPSG:123456' });
    assert.equal(badCrs.error?.code, 'handler_error');
    assert.match(badCrs.error!.message, /Unknown target CRS/);
    const ext = await run('inspect.extent', { layer: 'world', crs: 'EPSG:4326' });
    assert.equal(ext.data.extent.length, 4);
    const info = await run('inspect.layer_info', { layer: 'world' });
    assert.equal(info.data.crs.epsg, 4326);
    assert.equal(info.data.feature_count, 177);
    const notRaster = await run('inspect.sample_raster', { layer: 'world', points: [[0, 0]] });
    assert.equal(notRaster.error?.code, 'invalid_params');
    const desc = await run('inspect.describe_path', { path: own('datasets.xlsx') });
    assert.deepEqual(
      desc.data.layers.map((l: { name: string }) => l.name),
      ['iris', 'mtcars', 'chickwts', 'quakes'],
    );
  });
});
