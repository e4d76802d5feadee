import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isPgQuerySublayer,
  parsePgTable,
  pgQueryOf,
  pgQuerySublayer,
  pgRasterOf,
  pgRasterSublayer,
  postgisConnectionOf,
  postgisSource,
} from './pgSource.js';
import { defaultLayerName, formatSource, parseSource } from './source.js';

describe('a server query kept as a layer (postgis://id|layername=sql:…)', () => {
  it('round-trips through a source string, whatever the query holds', () => {
    const queries = [
      'SELECT name, geom FROM public.roads',
      "SELECT name || ' | ' || kind AS label, geom FROM roads -- a comment\nWHERE kind = 'a%b'",
      'WITH t AS (\n\tSELECT * FROM "odd|name"\n)\nSELECT * FROM t',
      "SELECT '東京' AS 名前, geom FROM places WHERE x LIKE '%25'",
      'SELECT 1 AS "layername=x", geom FROM t',
    ];
    for (const sql of queries) {
      const source = formatSource({ path: postgisSource('c1'), sublayer: pgQuerySublayer(sql) });
      assert.ok(!source.slice(source.indexOf('|layername=') + 1).includes('|'), source);
      assert.ok(!/\p{Cc}/u.test(source), source);
      const ref = parseSource(source);
      assert.equal(ref.path, 'postgis://c1');
      assert.equal(postgisConnectionOf(ref.path), 'c1');
      assert.equal(pgQueryOf(ref.sublayer!), sql);
      assert.ok(isPgQuerySublayer(ref.sublayer!));
      assert.equal(parsePgTable(ref.sublayer!), null, 'a query is never read as a table');
      assert.equal(defaultLayerName(ref), 'query');
    }
  });

  it('stays readable: only %, | and control characters are escaped', () => {
    assert.equal(pgQuerySublayer("SELECT a || b FROM t WHERE c = 'x'\n"), "sql:SELECT a %7C%7C b FROM t WHERE c = 'x'");
  });

  it('refuses a malformed escape rather than guessing, and an empty query', () => {
    for (const bad of ['sql:SELECT 1 %ZZ', 'sql:SELECT %E2%80%A8', 'sql:SELECT 50%', 'sql:', 'sql:   '])
      assert.equal(pgQueryOf(bad), null, bad);
  });

  it('decodes what a hostile source escapes: the query is checked again where it runs, not trusted here', () => {
    // `;` written as %3B decodes to a second statement: checkServerQuery refuses it where the layer is opened.
    assert.equal(pgQueryOf('sql:SELECT 1%3B DROP TABLE roads'), 'SELECT 1; DROP TABLE roads');
  });

  it('leaves tables as they were: schema.table and a bare name', () => {
    assert.deepEqual(parsePgTable('public.roads'), { schema: 'public', table: 'roads' });
    assert.deepEqual(parsePgTable('roads'), { schema: 'public', table: 'roads' });
    assert.equal(pgQueryOf('public.roads'), null);
    assert.equal(defaultLayerName(parseSource('postgis://c1|layername=public.roads')), 'roads');
  });
});

describe('a raster column as a layer (postgis://id|layername=raster:schema.table.column)', () => {
  it('round-trips names with dots, spaces, % and | without shifting the parts', () => {
    for (const r of [
      { schema: 'public', table: 'dem', column: 'rast' },
      { schema: 'odd schema', table: 'dem.v1', column: 'r.a|s%t' },
      { schema: '名前', table: 'a..b', column: '.' },
    ]) {
      const sublayer = pgRasterSublayer(r);
      assert.equal(sublayer.split('.').length, 3, sublayer);
      assert.ok(!sublayer.includes('|'), sublayer);
      assert.deepEqual(pgRasterOf(sublayer), r);
      assert.equal(parsePgTable(sublayer), null, 'a raster is never read as a table');
      assert.equal(pgQueryOf(sublayer), null);
      assert.equal(defaultLayerName(parseSource(`postgis://c1|layername=${sublayer}`)), r.table);
    }
  });

  it('refuses a malformed one', () => {
    for (const bad of ['raster:public.dem', 'raster:a.b.c.d', 'raster:a..c', 'raster:a.b.%ZZ', 'raster:a.b.%0A'])
      assert.equal(pgRasterOf(bad), null, bad);
  });
});
