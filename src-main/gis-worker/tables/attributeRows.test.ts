import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CACHE_DIR_ENV } from '../cacheDir.js';
import { BadInputError } from '../errors.js';
import { fixture, gdalCli, skipReason } from '../testSupport.js';
import { attributeRows, featuresById, idsWhere } from './attributeRows.js';
import { servedTable } from './servedTable.js';

const NC = fixture('nc.gpkg');
const SCOT = fixture('scot_BNG.shp');

/** GDAL's own reading of one feature's field, by id. */
function gdalField(file: string, layer: string, fid: number, field: string): string {
  const out = gdalCli('ogrinfo', ['-ro', '-q', '-fid', String(fid), file, layer]);
  return new RegExp(`${field} \\(\\w+\\) = (.*)`).exec(out)![1]!.trim();
}

describe('attribute rows: pages, filters and features by id, read by SQLite', { skip: skipReason }, () => {
  let cache: string;
  before(() => {
    cache = mkdtempSync(join(tmpdir(), 'mapwright-table-cache-'));
    process.env[CACHE_DIR_ENV] = cache;
  });
  after(() => rmSync(cache, { recursive: true, force: true }));

  it('serves an indexed GeoPackage table in place, and any other source from one cached copy', async () => {
    const nc = await servedTable(NC);
    assert.equal(nc.cached, false);
    assert.equal(nc.path, NC);
    assert.equal(nc.count, 100);
    const shpBefore = statSync(SCOT).mtimeMs;
    const scot = await servedTable(SCOT);
    assert.equal(scot.cached, true);
    assert.ok(scot.path.startsWith(cache), 'the copy lives in the cache');
    assert.equal(statSync(SCOT).mtimeMs, shpBefore, 'the source is not written');
    assert.equal((await servedTable(SCOT)).path, scot.path, 'the copy is made once');
  });

  it("a page far into the table has GDAL's feature ids and values (shapefile ids start at 0)", async () => {
    const page = await attributeRows({ source: SCOT, offset: 3, limit: 2, orderBy: null, where: null });
    assert.equal(page.total, 56);
    assert.deepEqual(
      page.rows.map((r) => r.fid),
      [3, 4],
    );
    assert.equal(page.rows[0]!.values.NAME, gdalField(SCOT, 'scot_BNG', 3, 'NAME'));
  });

  it('ids with gaps: row i is still the i-th feature', async () => {
    const sparse = join(cache, 'sparse.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', sparse, NC, '-preserve_fid', '-where', 'fid % 3 = 0', '-nln', 'sparse']);
    const page = await attributeRows({ source: sparse, offset: 2, limit: 3, orderBy: null, where: null });
    assert.equal(page.total, 33);
    assert.deepEqual(
      page.rows.map((r) => r.fid),
      [9, 12, 15],
    );
  });

  it('sorts and filters, counting the matches', async () => {
    const page = await attributeRows({
      source: NC,
      offset: 0,
      limit: 3,
      orderBy: { field: 'name', descending: true },
      where: 'AREA > 0.2',
    });
    const expected = gdalCli('ogrinfo', ['-ro', '-q', '-sql', 'SELECT count(*) AS n FROM "nc.gpkg" WHERE AREA > 0.2', NC]);
    assert.equal(page.total, Number(/n \(Integer\w*\) = (\d+)/.exec(expected)![1]));
    const names = page.rows.map((r) => String(r.values.NAME));
    assert.deepEqual(names, [...names].sort().reverse(), 'descending by NAME (field names match case-insensitively)');
  });

  it('refuses filters outside the allow-list before they reach SQLite', async () => {
    for (const where of [
      "load_extension('/tmp/x.so')",
      'AREA > 0) UNION SELECT * FROM sqlite_master --',
      "readfile('/etc/passwd') IS NOT NULL",
      'no_such_field = 1',
    ]) {
      await assert.rejects(attributeRows({ source: NC, offset: 0, limit: 5, orderBy: null, where }), BadInputError, where);
    }
    await assert.rejects(
      attributeRows({ source: NC, offset: 0, limit: 5, orderBy: { field: 'nope', descending: false }, where: null }),
      /No field 'nope'/,
    );
  });

  it('features by id come in EPSG:4326 with every attribute and a bbox; unknown ids are skipped', async () => {
    const { features, bbox } = await featuresById(NC, [1, 2, 99_999]);
    assert.deepEqual(
      features.map((f) => f.id),
      [1, 2],
    );
    assert.equal(features[0]!.properties.NAME, gdalField(NC, 'nc.gpkg', 1, 'NAME'));
    assert.ok(bbox && bbox[0] > -85 && bbox[2] < -75 && bbox[1] > 33 && bbox[3] < 37, `NC in lon/lat: ${bbox}`);
  });

  it('ids matching a filter, capped, with the full count', async () => {
    const r = await idsWhere(NC, 'AREA > 0.1', 5);
    assert.equal(r.fids.length, 5);
    assert.ok(r.total > 5 && r.capped);
  });
});
