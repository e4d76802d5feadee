/**
 * Join attributes by field value — the acceptance of issue 4: spData's World Bank table
 * joined to spData's world polygons by iso_a2, the values of named countries checked against
 * the CSV rows (read by ogrinfo and by a plain look at the text), and the report of keys
 * that did not join checked against what the two files hold.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { E2E_FIXTURES, skipReason } from '../testSupport.js';
import { algorithmSuite, ogrNumber, ogrRows, ogrSo } from './algorithmTestKit.js';

const WORLD = path.join(E2E_FIXTURES, 'world.gpkg');
const WB = path.join(E2E_FIXTURES, 'worldbank_df.csv');
const NUMERIC = ['HDI', 'urban_pop', 'unemployment', 'pop_growth', 'literacy'];
/** The acceptance's join: the World Bank table onto the world polygons by iso_a2. */
const WB_BY_ISO = { input: WORLD, table: WB, input_keys: 'iso_a2', table_keys: 'iso_a2' };

/** A CSV row's value as the file writes it: R's unquoted NA is no value. */
function csvValue(raw: string | null): number | null {
  return raw === null || raw === 'NA' ? null : Number(raw);
}

describe('join attributes by field value', { skip: skipReason }, () => {
  const { tmp, runGpkg } = algorithmSuite();

  test('worldbank_df.csv joined to world.gpkg by iso_a2: values of named countries equal the CSV rows', async () => {
    const r = await runGpkg('join_by_field', WB_BY_ISO, 'world_wb');
    assert.equal(r.featureCount, ogrNumber(WORLD, 'SELECT COUNT(*) FROM world'));
    assert.match(ogrSo(r.file, 'world_wb'), /Multi Polygon[\s\S]*WGS 84[\s\S]*HDI: Real[\s\S]*urban_pop: Integer/);
    for (const [iso, country] of [
      ['AO', 'Angola'],
      ['DE', 'Germany'],
      ['BR', 'Brazil'],
      ['IN', 'India'],
      ['NO', 'Norway'],
    ] as const) {
      const joined = ogrRows(r.file, `SELECT name_long, ${NUMERIC.join(', ')} FROM world_wb WHERE iso_a2 = '${iso}'`)[0]!;
      const row = ogrRows(WB, `SELECT ${NUMERIC.join(', ')} FROM worldbank_df WHERE name = '${country}'`)[0]!;
      assert.equal(joined.name_long, country);
      for (const field of NUMERIC)
        assert.equal(joined[field] === null ? null : Number(joined[field]), csvValue(row[field]!), `${country} ${field}`);
    }
    // Namibia's ISO code is "NA": the CSV quotes it, unlike R's missing values. It must join.
    const namibiaLine = readFileSync(WB, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Namibia,'))!;
    assert.match(namibiaLine, /^Namibia,"NA",0\.606,1083022,/);
    const namibia = ogrRows(r.file, "SELECT HDI, urban_pop FROM world_wb WHERE name_long = 'Namibia'")[0]!;
    assert.deepEqual(namibia, { HDI: '0.606', urban_pop: '1083022' });
  });

  test('the report names the keys that did not join, on both sides', async () => {
    const r = await runGpkg('join_by_field', WB_BY_ISO, 'world_wb2');
    const report = r.report as Record<string, unknown>;
    // Kosovo is XK in world.gpkg; the CSV has Kosovo with no code (unquoted NA) and no XK.
    assert.equal(ogrNumber(WORLD, "SELECT COUNT(*) FROM world WHERE iso_a2 = 'XK'"), 1);
    assert.ok(!/,XK,/.test(readFileSync(WB, 'utf8')));
    assert.deepEqual(report.input_keys_without_match, ['XK']);
    assert.equal(report.input_features_with_empty_key, ogrNumber(WORLD, 'SELECT COUNT(*) FROM world WHERE iso_a2 IS NULL'));
    const missingCodes = readFileSync(WB, 'utf8')
      .split('\n')
      .filter((l) => /^[^,"]*,NA,/.test(l)).length;
    assert.equal(report.table_rows_with_empty_key, missingCodes);
    assert.equal(report.matched_features, 177 - 1 - Number(report.input_features_with_empty_key));
    assert.equal(report.table_keys_without_match_count, 0);
    assert.deepEqual(report.duplicated_table_keys, []);
    assert.ok(
      r.notes.some((n) => /their keys: 'XK'/.test(n)),
      r.notes.join('; '),
    );
  });

  test('keys compare as trimmed text, case-insensitively on request; duplicates are reported, the first row wins', async () => {
    // Three real rows, re-keyed as people type them: lower case, stray spaces (quoted, so no
    // reader strips them), and a second "ao" carrying Albania's row after Angola's.
    const lines = readFileSync(WB, 'utf8').split('\n');
    const row = (name: string): string[] => lines.find((l) => l.startsWith(`${name},`))!.split(',');
    const angola = row('Angola');
    const germany = row('Germany');
    const albania = row('Albania');
    const csv = path.join(tmp.dir, 'rekeyed.csv');
    writeFileSync(
      csv,
      [
        'code,HDI,urban_pop',
        `" ao ",${angola[2]},${angola[3]}`,
        `"de ",${germany[2]},${germany[3]}`,
        `ao,${albania[2]},${albania[3]}`,
        'zz,1,2',
        '',
      ].join('\n'),
    );

    const strict = await runGpkg('join_by_field', { input: WORLD, table: csv, input_keys: 'iso_a2', table_keys: 'code' }, 'strict');
    assert.equal((strict.report as Record<string, unknown>).matched_features, 0);

    const loose = await runGpkg(
      'join_by_field',
      { input: WORLD, table: csv, input_keys: 'iso_a2', table_keys: 'code', case_insensitive: true, keep_unmatched: false, prefix: 'wb_' },
      'loose',
    );
    const report = loose.report as Record<string, unknown>;
    assert.equal(loose.featureCount, 2);
    assert.deepEqual(report.duplicated_table_keys, [{ key: 'ao', rows: 2 }]);
    assert.deepEqual(report.table_keys_without_match, ['zz']);
    const ao = ogrRows(loose.file, "SELECT wb_urban_pop FROM loose WHERE iso_a2 = 'AO'")[0]!;
    assert.equal(Number(ao.wb_urban_pop), Number(angola[3]), "Angola's row, not Albania's");
    assert.ok(loose.notes.some((n) => /'ao' \(2 rows\)/.test(n)));
  });

  test('a layer as the table, with a composite key', async () => {
    const r = await runGpkg(
      'join_by_field',
      {
        input: WORLD,
        table: WORLD,
        input_keys: ['iso_a2', 'name_long'],
        table_keys: ['ISO_A2', 'NAME_LONG'],
        fields: ['pop'],
        prefix: 'w_',
      },
      'self',
    );
    const withCode = ogrNumber(WORLD, 'SELECT COUNT(*) FROM world WHERE iso_a2 IS NOT NULL');
    assert.equal((r.report as Record<string, unknown>).matched_features, withCode);
    assert.equal(
      ogrNumber(r.file, 'SELECT COUNT(*) FROM self WHERE w_pop = pop'),
      ogrNumber(WORLD, 'SELECT COUNT(*) FROM world WHERE pop IS NOT NULL AND iso_a2 IS NOT NULL'),
    );
  });

  test('mismatched key lists and unknown fields are the person’s to fix', async () => {
    await assert.rejects(
      runGpkg('join_by_field', { input: WORLD, table: WB, input_keys: ['iso_a2', 'name_long'], table_keys: 'iso_a2' }, 'bad1'),
      /input_keys has 2 field\(s\) but table_keys has 1/,
    );
    await assert.rejects(
      runGpkg('join_by_field', { input: WORLD, table: WB, input_keys: 'iso_a2', table_keys: 'iso3' }, 'bad2'),
      /'table_keys': no field 'iso3' in .*worldbank_df\.csv; its fields are: name, iso_a2, HDI/,
    );
  });
});
