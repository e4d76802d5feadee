import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gdalDatasourceRefs, gdalLayerRefs } from './gdalLayerScan.js';

/** The port of GDAL's table-name scanner, on the cases its C++ handles (checked against GDAL in sqlGuard.test.ts). */
describe("GDAL's table-name scanner, ported", () => {
  const ds = (sql: string) => gdalDatasourceRefs(sql).map((r) => `${r.datasource}|${r.layer}`);

  it('reads layers after FROM, in FROM lists, after JOIN, with and without a datasource', () => {
    const names = gdalLayerRefs('SELECT * FROM a, "b c" AS x JOIN d ON 1 WHERE z IN (SELECT 1 FROM e)').map((r) => r.layer);
    for (const n of ['a', 'b c', 'd', 'e']) assert.ok(names.includes(n), n);
    assert.deepEqual(ds('SELECT * FROM "/x.gpkg"."l"'), ['/x.gpkg|l']);
    assert.deepEqual(ds("SELECT * FROM '/x.gpkg'.l"), ['/x.gpkg|l']);
    assert.deepEqual(ds('SELECT * FROM a JOIN /x.l ON 1'), ['/x|l']);
    assert.deepEqual(ds('SELECT * FROM a'), []);
  });

  it('skips \'…\' and "…" literals with doubled quotes, but not comments, brackets or backticks', () => {
    assert.deepEqual(ds(`SELECT 'FROM "/x"."l"', "JOIN /y.l", 'it''s FROM "/z"."l"' FROM a`), []);
    assert.deepEqual(ds('SELECT 1 /* FROM "/x"."l" */ FROM a'), ['/x|l']);
    assert.deepEqual(ds('SELECT [x JOIN "/x"."l"] FROM a'), ['/x|l']);
    assert.deepEqual(ds("SELECT [it's] FROM a WHERE ' FROM \"/x\".\"l\" ' = ''"), ['/x|l']);
  });

  it('matches FROM and JOIN inside longer words, ogr_layer_ calls, and any whitespace', () => {
    assert.deepEqual(ds('SELECT 1 AS afrom "/x"."l" FROM a'), ['/x|l']);
    assert.deepEqual(ds('SELECT ogr_layer_x, abs("/x".l) FROM a'), ['/x|l']);
    assert.deepEqual(ds('SELECT * FROM\n\t"/x"\n.l'), []);
    assert.deepEqual(ds('SELECT * FROM\n\t"/x".l'), ['/x|l']);
    assert.deepEqual(ds('SELECT t.valid_from -t.x FROM t'), ['-t|x']);
  });
});
