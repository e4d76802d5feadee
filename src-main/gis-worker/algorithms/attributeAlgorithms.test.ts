/**
 * Attribute algorithms (select, field calculator, aggregate) and Stop, in the real worker on
 * spData's world and its World Bank table; the referee is ogr2ogr/ogrinfo running the same
 * question in SQLite SQL on the source files.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { E2E_FIXTURES, fixture, gdalCli, skipReason } from '../testSupport.js';
import { algorithmSuite, featureCountOf, ogrNumber, ogrRows, ogrSo, relClose } from './algorithmTestKit.js';

const WORLD = path.join(E2E_FIXTURES, 'world.gpkg');
const WB = path.join(E2E_FIXTURES, 'worldbank_df.csv');

describe('attribute algorithms in the worker', { skip: skipReason }, () => {
  const { tmp, runGpkg } = algorithmSuite();

  test('select by attribute: the same rows as ogr2ogr -dialect SQLite -sql', async () => {
    const where = "continent = 'Africa' AND pop > 5e7";
    const r = await runGpkg('select_by_attribute', { input: WORLD, where: "CONTINENT = 'Africa' and POP > 5e7" });
    const cli = path.join(tmp.dir, 'cli_select.gpkg');
    gdalCli('ogr2ogr', ['-f', 'GPKG', cli, WORLD, '-dialect', 'SQLite', '-sql', `SELECT * FROM world WHERE ${where}`, '-nln', 'cli']);
    assert.equal(r.featureCount, featureCountOf(cli, 'cli'));
    const names = (file: string, table: string): (string | null)[] =>
      ogrRows(file, `SELECT name_long FROM "${table}" ORDER BY name_long`).map((x) => x.name_long!);
    assert.deepEqual(names(r.file, r.layer), names(cli, 'cli'));
    assert.ok(names(r.file, r.layer).includes('Nigeria'));
    assert.match(ogrSo(r.file, r.layer), /Multi Polygon[\s\S]*WGS 84/);
  });

  test('select by attribute on a plain table (the World Bank CSV, NA read as empty)', async () => {
    const r = await runGpkg('select_by_attribute', { input: WB, where: 'HDI > 0.9' }, 'hdi');
    const referee = ogrNumber(WB, "SELECT COUNT(*) FROM worldbank_df WHERE HDI <> 'NA' AND CAST(HDI AS REAL) > 0.9");
    assert.equal(r.featureCount, referee);
    assert.match(ogrSo(r.file, 'hdi'), /Geometry: None/);
  });

  test('select by attribute names the real fields when one is misspelt', async () => {
    await assert.rejects(
      runGpkg('select_by_attribute', { input: WORLD, where: 'population > 1e8' }, 'bad_select'),
      /'where': no field 'population'; fields: iso_a2, name_long, continent/,
    );
  });

  test('field calculator: numbers, text from CASE, replacing a field, on a layer and a table', async () => {
    const r = await runGpkg('field_calculator', {
      input: WORLD,
      field_name: 'pop_m',
      expression: 'round(pop / 1e6, 1)',
    });
    const china = ogrNumber(WORLD, "SELECT pop FROM world WHERE iso_a2 = 'CN'");
    assert.equal(ogrNumber(r.file, "SELECT pop_m FROM field_calculator WHERE iso_a2 = 'CN'"), Math.round(china / 1e5) / 10);
    assert.match(ogrSo(r.file, r.layer), /pop_m: Real/);
    assert.equal(r.featureCount, 177);

    const text = await runGpkg(
      'field_calculator',
      {
        input: WORLD,
        field_name: 'lifespan',
        field_type: 'text',
        expression: "CASE WHEN lifeExp >= 80 THEN 'long' WHEN lifeExp IS NULL THEN NULL ELSE 'shorter' END",
      },
      'lifespan',
    );
    const rows = ogrRows(text.file, "SELECT iso_a2, lifespan FROM lifespan WHERE iso_a2 IN ('JP', 'NG') ORDER BY iso_a2");
    assert.deepEqual(rows, [
      { iso_a2: 'JP', lifespan: 'long' },
      { iso_a2: 'NG', lifespan: 'shorter' },
    ]);
    assert.ok(
      text.notes.some((n) => /feature\(s\) got an empty value/.test(n)),
      'countries without lifeExp are reported',
    );

    const replaced = await runGpkg(
      'field_calculator',
      { input: WORLD, field_name: 'POP', field_type: 'integer', expression: 'pop / 1000' },
      'pop_k',
    );
    assert.ok(replaced.notes.some((n) => /replaced/.test(n)));
    assert.equal(ogrNumber(replaced.file, "SELECT POP FROM pop_k WHERE iso_a2 = 'CN'"), Math.trunc(china / 1000));

    const table = await runGpkg('field_calculator', { input: WB, field_name: 'urban_k', expression: 'urban_pop / 1000.0' }, 'wb_calc');
    const angola = ogrRows(WB, "SELECT urban_pop FROM worldbank_df WHERE iso_a2 = 'AO'")[0]!.urban_pop!;
    assert.ok(relClose(ogrNumber(table.file, "SELECT urban_k FROM wb_calc WHERE iso_a2 = 'AO'"), Number(angola) / 1000, 1e-12));
  });

  test('field calculator warns that ST_Area on a degree layer is in degrees', async () => {
    const r = await runGpkg('field_calculator', { input: WORLD, field_name: 'deg2', expression: 'ST_Area(geom)' }, 'deg');
    assert.ok(
      r.notes.some((n) => /degree units.*area_length/.test(n)),
      r.notes.join('; '),
    );
  });

  test('aggregate by continent: a table of sums, means and maxima equal to GROUP BY in ogrinfo', async () => {
    const r = await runGpkg('aggregate', {
      input: WORLD,
      group_by: ['continent'],
      fields: ['pop', 'lifeExp'],
      statistics: ['sum', 'mean', 'max'],
    });
    assert.match(ogrSo(r.file, 'aggregate'), /Geometry: None/);
    const ours = ogrRows(r.file, 'SELECT continent, count, pop_sum, pop_mean, lifeExp_max FROM aggregate ORDER BY continent');
    const theirs = ogrRows(
      WORLD,
      'SELECT continent, COUNT(*) AS n, SUM(pop) AS s, AVG(pop) AS m, MAX(lifeExp) AS x FROM world GROUP BY continent ORDER BY continent',
    );
    assert.equal(ours.length, theirs.length);
    ours.forEach((row, i) => {
      const t = theirs[i]!;
      assert.equal(row.continent, t.continent);
      assert.equal(Number(row.count), Number(t.n));
      assert.ok(relClose(Number(row.pop_sum), Number(t.s), 1e-12), `${row.continent} sum`);
      assert.ok(relClose(Number(row.pop_mean), Number(t.m), 1e-12), `${row.continent} mean`);
      assert.ok(row.lifeExp_max === t.x || relClose(Number(row.lifeExp_max), Number(t.x), 1e-12));
    });

    const dissolved = await runGpkg(
      'aggregate',
      { input: WORLD, group_by: ['continent'], fields: ['pop'], statistics: ['sum'], geometry: 'dissolve' },
      'agg_geom',
    );
    assert.match(ogrSo(dissolved.file, 'agg_geom'), /Geometry: Multi Polygon/);
    assert.equal(dissolved.featureCount, theirs.length);
  });

  test('Stop: a cancelled run is rejected and the worker goes on serving', async () => {
    const controller = new AbortController();
    const run = runGpkg('union', { input: fixture('nc.gpkg'), overlay: fixture('countries.fgb') }, 'stopped', {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await assert.rejects(run);
    const after = await runGpkg('select_by_attribute', { input: WORLD, where: "iso_a2 = 'FR'" }, 'after_stop');
    assert.equal(after.featureCount, 1);
  });
});
