/**
 * Lineage stored in real files by the real worker (issue 17), checked from outside: the
 * GeoPackage rows with SQLite itself, the GeoTIFF tag with gdalinfo, the sidecar as a file —
 * and every file still reads exactly as before (features as GeoJSON, pixel checksums).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { LINEAGE_FORMAT, LINEAGE_MIME, LINEAGE_STANDARD_URI, LINEAGE_TIFF_ITEM, type Lineage } from '../../src-shared/domain/lineage.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { fixture, gdalCli, rejectsAsBadInput, skipReason, workerSuite } from '../gis-worker/testSupport.js';

/** Text a careless writer would break: quotes, XML, SQL, control characters, astral Unicode. */
const HOSTILE = `'"; DROP TABLE gpkg_metadata; -- </Item><Item name="X">&amp;<![CDATA[]]> \\ \n\t\u0000 ⛰️ 𝄞 ${'x'.repeat(20_000)}`;

function lineage(parameters: unknown = { algorithm: 'buffer', params: { input: 'nc', distance: 100 } }): Lineage {
  return {
    format: LINEAGE_FORMAT,
    tool: 'processing.run',
    version: '1.2.0',
    definitionHash: 'a'.repeat(64),
    parameters,
    inputs: [{ path: '/data/nc.gpkg', sublayer: 'nc', sha256: 'b'.repeat(64), bytes: 124_928, modified: '2026-01-01T00:00:00.000Z' }],
    startedAt: '2026-12-02T10:00:00.000Z',
    createdAt: '2026-12-02T10:00:01.000Z',
    app: 'Mapwright 0.1.0',
  };
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** Every feature as GeoJSON, by GDAL's own tool: what a reader of the layer gets. */
const features = (file: string, layer?: string) =>
  sha(gdalCli('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', file, ...(layer ? [layer] : [])]));
/** Per-band pixel checksums, by gdalinfo. */
const pixels = (file: string) =>
  (JSON.parse(gdalCli('gdalinfo', ['-json', '-checksum', file])) as { bands: { checksum: number }[] }).bands.map((b) => b.checksum);

describe('lineage stored in the files themselves', { skip: skipReason }, () => {
  let worker: GisWorkerClient;
  const { out } = workerSuite((c) => (worker = c), 'mapwright-lineage-');

  test('a GeoPackage table gets one gpkg_metadata row, table-scoped, that reads back; features unchanged', async () => {
    const file = out('nc.gpkg');
    copyFileSync(fixture('nc.gpkg'), file);
    const before = features(file, 'nc.gpkg');
    const written = await worker.call('lineage.write', { path: file, sublayer: 'nc.gpkg', lineage: lineage() });
    assert.deepEqual(written, { stored: 'gpkg_metadata', location: `${file}|layername=nc.gpkg` });
    // A second stamp replaces the first rather than piling up.
    const second = lineage({ run: 2 });
    await worker.call('lineage.write', { path: file, sublayer: 'nc.gpkg', lineage: second });

    const db = new Database(file, { readonly: true });
    try {
      const rows = db
        .prepare(
          `SELECT m.md_scope, m.md_standard_uri, m.mime_type, m.metadata, r.reference_scope, r.table_name, r.column_name, r.timestamp
           FROM gpkg_metadata m JOIN gpkg_metadata_reference r ON r.md_file_id = m.id`,
        )
        .all() as Record<string, string | null>[];
      assert.equal(rows.length, 1);
      const row = rows[0]!;
      assert.equal(row.md_scope, 'dataset');
      assert.equal(row.md_standard_uri, LINEAGE_STANDARD_URI);
      assert.equal(row.mime_type, LINEAGE_MIME);
      assert.equal(row.reference_scope, 'table');
      assert.equal(row.table_name, 'nc.gpkg');
      assert.equal(row.column_name, null);
      assert.match(row.timestamp!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
      assert.deepEqual(JSON.parse(row.metadata!), second);
      const extensions = db.prepare(`SELECT table_name FROM gpkg_extensions WHERE extension_name = 'gpkg_metadata' ORDER BY 1`).all();
      assert.deepEqual(extensions, [{ table_name: 'gpkg_metadata' }, { table_name: 'gpkg_metadata_reference' }]);
      assert.equal((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
    } finally {
      db.close();
    }
    assert.equal(features(file, 'nc.gpkg'), before);
    const read = await worker.call('lineage.read', { source: `${file}|layername=nc.gpkg` });
    assert.deepEqual(read, { stored: 'gpkg_metadata', lineage: second, unreadable: null });
    // The same table, named by the file alone (its first layer).
    assert.deepEqual((await worker.call('lineage.read', { source: file })).lineage, second);
  });

  test('another table of the same GeoPackage has no lineage of its own', async () => {
    const file = out('two.gpkg');
    copyFileSync(fixture('nc.gpkg'), file);
    gdalCli('ogr2ogr', ['-update', '-nln', 'other', file, fixture('nc.gpkg'), 'nc.gpkg']);
    await worker.call('lineage.write', { path: file, sublayer: 'nc.gpkg', lineage: lineage() });
    assert.deepEqual(await worker.call('lineage.read', { source: `${file}|layername=other` }), {
      stored: null,
      lineage: null,
      unreadable: null,
    });
  });

  test('a GeoTIFF keeps it in its GDAL_METADATA tag (no .aux.xml); pixels and other items unchanged', async () => {
    const file = out('elev.tif');
    copyFileSync(fixture('elev.tif'), file);
    const before = pixels(file);
    const itemsBefore = (JSON.parse(gdalCli('gdalinfo', ['-json', file])) as { metadata: { '': Record<string, string> } }).metadata[''];
    const written = await worker.call('lineage.write', { path: file, sublayer: null, lineage: lineage() });
    assert.deepEqual(written, { stored: 'geotiff_metadata', location: file });
    assert.equal(existsSync(`${file}.aux.xml`), false);
    const info = JSON.parse(gdalCli('gdalinfo', ['-json', file])) as { metadata: { '': Record<string, string> } };
    assert.deepEqual(JSON.parse(info.metadata[''][LINEAGE_TIFF_ITEM]!), lineage());
    for (const [key, value] of Object.entries(itemsBefore)) assert.equal(info.metadata[''][key], value, key);
    // In the file's bytes, not anywhere else.
    assert.ok(readFileSync(file).includes(LINEAGE_TIFF_ITEM));
    assert.deepEqual(pixels(file), before);
    assert.deepEqual((await worker.call('lineage.read', { source: file })).lineage, lineage());
  });

  test('GeoJSON and Shapefile get a sidecar <file>.lineage.json; the data files are untouched', async () => {
    const geojson = out('countries.geojson');
    copyFileSync(fixture('ne_110m_admin_0_countries.json'), geojson);
    const shp = out('scot_BNG.shp');
    for (const ext of ['shp', 'shx', 'dbf', 'prj']) copyFileSync(fixture(`scot_BNG.${ext}`), out(`scot_BNG.${ext}`));
    for (const file of [geojson, shp]) {
      const bytes = sha(readFileSync(file, 'latin1'));
      const before = features(file);
      const written = await worker.call('lineage.write', { path: file, sublayer: null, lineage: lineage() });
      assert.deepEqual(written, { stored: 'sidecar', location: `${file}.lineage.json` });
      assert.deepEqual(JSON.parse(readFileSync(`${file}.lineage.json`, 'utf8')), lineage());
      assert.equal(sha(readFileSync(file, 'latin1')), bytes);
      assert.equal(features(file), before);
      assert.deepEqual(await worker.call('lineage.read', { source: file }), { stored: 'sidecar', lineage: lineage(), unreadable: null });
    }
  });

  test('a file kept as fetched (beside: true) gets the sidecar even as a GeoPackage; its bytes stay the same', async () => {
    const file = out('downloaded.gpkg');
    copyFileSync(fixture('nc.gpkg'), file);
    const bytes = sha(readFileSync(file, 'latin1'));
    const written = await worker.call('lineage.write', { path: file, sublayer: null, lineage: lineage(), beside: true });
    assert.deepEqual(written, { stored: 'sidecar', location: `${file}.lineage.json` });
    assert.equal(sha(readFileSync(file, 'latin1')), bytes);
    assert.deepEqual(await worker.call('lineage.read', { source: file }), { stored: 'sidecar', lineage: lineage(), unreadable: null });
  });

  test('hostile parameter text survives GeoPackage, GeoTIFF and sidecar exactly', async () => {
    const hostile = lineage({ sql: HOSTILE, nested: { [HOSTILE.slice(0, 40)]: [HOSTILE.slice(0, 100), null, 1e-7, true] } });
    const gpkg = out('hostile.gpkg');
    copyFileSync(fixture('nc.gpkg'), gpkg);
    const tif = out('hostile.tif');
    copyFileSync(fixture('elev.tif'), tif);
    const csv = out('hostile.csv');
    copyFileSync(fixture('cycle_hire_xy.csv'), csv);
    for (const file of [gpkg, tif, csv]) {
      await worker.call('lineage.write', { path: file, sublayer: null, lineage: hostile });
      const read = await worker.call('lineage.read', { source: file });
      assert.equal(read.unreadable, null, file);
      assert.deepEqual(read.lineage, hostile, file);
    }
    assert.equal(features(gpkg, 'nc.gpkg'), features(fixture('nc.gpkg'), 'nc.gpkg'));
  });

  test('a damaged or foreign record reads as unreadable with the reason, never as an error', async () => {
    const geojson = out('damaged.geojson');
    copyFileSync(fixture('ne_110m_admin_0_countries.json'), geojson);
    writeFileSync(`${geojson}.lineage.json`, '{"format":"mapwright-lineage/1", "tool": ');
    const damaged = await worker.call('lineage.read', { source: geojson });
    assert.equal(damaged.lineage, null);
    assert.match(damaged.unreadable!, /not JSON/);

    const gpkg = out('foreign.gpkg');
    copyFileSync(fixture('nc.gpkg'), gpkg);
    await worker.call('lineage.write', { path: gpkg, sublayer: null, lineage: lineage() });
    const db = new Database(gpkg);
    db.prepare('UPDATE gpkg_metadata SET metadata = ? WHERE md_standard_uri = ?').run(
      JSON.stringify({ format: 'other/9' }),
      LINEAGE_STANDARD_URI,
    );
    db.close();
    const foreign = await worker.call('lineage.read', { source: gpkg });
    assert.equal(foreign.lineage, null);
    assert.match(foreign.unreadable!, /format/);
  });

  test('a file without lineage reads as none; a database or missing file is refused for writing', async () => {
    assert.deepEqual(await worker.call('lineage.read', { source: fixture('nc.gpkg') }), { stored: null, lineage: null, unreadable: null });
    assert.deepEqual(await worker.call('lineage.read', { source: 'postgis://abc|layername=public.t' }), {
      stored: null,
      lineage: null,
      unreadable: null,
    });
    await rejectsAsBadInput(
      worker.call('lineage.write', { path: 'postgis://abc', sublayer: 'public.t', lineage: lineage() }),
      /only in local files/,
    );
    await rejectsAsBadInput(
      worker.call('lineage.write', { path: path.join(out('nowhere'), 'x.gpkg'), sublayer: null, lineage: lineage() }),
      /does not exist/,
    );
  });

  test('hostile sources: a network, in-memory or relative path is never opened to read or write lineage', async () => {
    for (const source of ['/vsicurl/http://127.0.0.1:9/x.tif', 'https://127.0.0.1:9/x.gpkg', '/vsimem/x.gpkg', 'x.gpkg', '../x.tif']) {
      assert.deepEqual(await worker.call('lineage.read', { source }), { stored: null, lineage: null, unreadable: null }, source);
      await rejectsAsBadInput(worker.call('lineage.write', { path: source, sublayer: null, lineage: lineage() }), /only in local files/);
    }
  });
});
