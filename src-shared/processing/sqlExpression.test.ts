import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldCalculator, selectByAttribute } from './attributeAlgorithms.js';
import { checkExpression, checkWhere, ExpressionError, whereSyntaxProblem } from './sqlExpression.js';

const FIELDS = ['pop', 'name_long', 'Area Km2', 'iso_a2'];

describe('checkExpression', () => {
  it('quotes fields in their real spelling and keeps literals and keywords', () => {
    const r = checkExpression('POP > 1e6 and Name_Long like \'A%\' AND "area km2" BETWEEN 1 AND 2.5', FIELDS);
    assert.equal(r.sql, `"pop" > 1e6 AND "name_long" LIKE 'A%' AND "Area Km2" BETWEEN 1 AND 2.5`);
    assert.deepEqual(r.fieldsUsed.sort(), ['Area Km2', 'name_long', 'pop']);
  });

  it('allows CASE, CAST, IN lists, scalar functions and the geometry', () => {
    const r = checkExpression("CASE WHEN iso_a2 IN ('DE', 'FR') THEN round(pop / 1e6, 1) ELSE CAST(ST_Area(geom) AS INTEGER) END", FIELDS);
    assert.equal(
      r.sql,
      `CASE WHEN "iso_a2" IN ( 'DE' , 'FR' ) THEN round ( "pop" / 1e6 , 1 ) ELSE CAST ( st_area ( geom ) AS INTEGER ) END`,
    );
    assert.deepEqual(r.functionsUsed.sort(), ['round', 'st_area']);
  });

  it('keeps quotes inside strings intact, and a semicolon inside a string is only text', () => {
    assert.equal(checkExpression("name_long = 'Côte d''Ivoire; x'", FIELDS).sql, `"name_long" = 'Côte d''Ivoire; x'`);
  });

  const refused: [string, RegExp][] = [
    ['pop > 1; DROP TABLE world', /';' is not allowed/],
    ['pop > 1 -- comment', /comments/],
    ['pop > 1 /* c */', /comments/],
    ["load_extension('/tmp/x.so')", /function load_extension\(\) is not allowed/],
    ["BlobFromFile('/etc/passwd')", /function BlobFromFile\(\) is not allowed/],
    ['pop IN (SELECT pop FROM world)', /'SELECT' is not allowed/],
    ['sum(pop)', /function sum\(\) is not allowed/],
    ['max(pop)', /needs at least two arguments/],
    ['population > 3', /no field 'population'; fields: pop, name_long, Area Km2, iso_a2/],
    ['world.pop > 3', /unexpected character '\.'/],
    ["name_long = 'open", /unterminated string/],
    ['(pop > 1', /unbalanced '\('/],
    ['pop > 1)', /unbalanced '\)'/],
    ['pop > ?', /unexpected character '\?'/],
    ['', /empty/],
  ];
  for (const [expr, message] of refused) {
    it(`refuses ${JSON.stringify(expr)}`, () => {
      assert.throws(
        () => checkExpression(expr, FIELDS),
        (err: unknown) => err instanceof ExpressionError && message.test(err.message),
      );
    });
  }

  it('max() with two arguments is the scalar max', () => {
    assert.equal(checkExpression('max(pop, 0)', FIELDS).sql, 'max ( "pop" , 0 )');
  });

  it('the algorithm specs refuse a bad expression before the approval dialog', () => {
    const bad = selectByAttribute.params.safeParse({ input: 'world', where: 'pop > 1; DELETE FROM world' });
    assert.equal(bad.success, false);
    assert.match(bad.error!.issues[0]!.message, /';' is not allowed/);
    const good = fieldCalculator.params.safeParse({ input: 'world', field_name: 'pop_m', expression: 'pop / 1e6' });
    assert.equal(good.success, true);
    assert.equal(fieldCalculator.params.safeParse({ input: 'world', field_name: 'pop m', expression: '1' }).success, false);
  });

  it('a name before ( is a call however it is written: quoted, or a field, or a non-reserved keyword', () => {
    const refusedCall: [string, RegExp][] = [
      ['"ogr_geocode"(\'x\') IS NULL', /function ogr_geocode\(\) is not allowed: GDAL's ogr_\* functions/],
      ['"pop"(1) > 0', /function pop\(\) is not allowed/],
      ['pop (1) > 0', /function pop\(\) is not allowed/],
      ['true(1)', /function true\(\) is not allowed/],
      ['integer(1)', /function integer\(\) is not allowed/],
      ["OGR_DATASOURCE_LOAD_LAYERS('/vsicurl/http://h/x.gpkg')", /OGR_DATASOURCE_LOAD_LAYERS\(\) is not allowed/],
      ["gdal_get_pixel_value('/x.tif', 1, 'pixel', 0, 0)", /gdal_get_pixel_value\(\) is not allowed/],
      ["readfile('/etc/passwd')", /readfile\(\) is not allowed/],
      ["'abs'(1)", /cannot be called/],
    ];
    for (const [expr, why] of refusedCall) {
      assert.throws(
        () => checkExpression(expr, FIELDS),
        (err: unknown) => err instanceof ExpressionError && why.test(err.message),
        expr,
      );
    }
    assert.equal(checkExpression('"abs"(pop) + like(name_long, \'A%\')', FIELDS).sql, 'abs ( "pop" ) + like ( "name_long" , \'A%\' )');
    assert.equal(checkExpression('CAST(pop AS NUMERIC(10)) > 1', FIELDS).sql, 'CAST ( "pop" AS NUMERIC ( 10 ) ) > 1');
    assert.equal(checkExpression('NOT (pop IN (1, 2))', FIELDS).sql, 'NOT ( "pop" IN ( 1 , 2 ) )');
  });
});

describe('checkWhere (the attribute filter of inspect_query_features)', () => {
  it('rewrites fields and special names (FID, the geometry column) and keeps OGR SQL ILIKE', () => {
    const r = checkWhere("Pop > 1 AND fid < 10 AND ST_Area(GEOM) > 0 AND name_long ILIKE 'a%'", FIELDS, ['FID', 'geom']);
    assert.equal(r.sql, `"pop" > 1 AND "FID" < 10 AND st_area ( "geom" ) > 0 AND "name_long" ILIKE 'a%'`);
  });

  it('refuses functions outside the allow-list, statements and unknown names, naming them', () => {
    assert.throws(() => checkWhere("ogr_geocode('Paris') IS NULL", FIELDS), /function ogr_geocode\(\) is not allowed/);
    assert.throws(() => checkWhere('pop IN (SELECT 1)', FIELDS), /'SELECT' is not allowed/);
    assert.throws(() => checkWhere('geom IS NULL', FIELDS), /no field 'geom'; fields: pop, name_long, Area Km2, iso_a2; quote/);
    assert.throws(() => checkWhere('sum(pop) > 1', FIELDS), /sum\(\) is not allowed here: it is an aggregate/);
    assert.equal(
      whereSyntaxProblem("load_extension('/tmp/x.so') IS NULL")?.startsWith(
        'function load_extension() is not allowed: it loads native code',
      ),
      true,
    );
    assert.equal(whereSyntaxProblem("anything_goes = 'x' AND lower(b) LIKE 'a%'"), null);
  });
});
