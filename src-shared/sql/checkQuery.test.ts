/**
 * The SQL tools' capability boundary against a hostile corpus: every class of way to reach a
 * file, a URL or another database from GDAL's SQLite dialect, in many spellings — and a corpus
 * of ordinary queries that must keep working. What the real GDAL does with these is proved in
 * src-main/gis-worker/inspect/sqlGuard.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkQuery } from './checkQuery.js';

const TABLES = ['nc', 'countries', 'world bank', 'Roads 2024'];
const URL = '/vsicurl/http://127.0.0.1:9/x.geojson';
const APPDB = '/home/me/.config/Mapwright/mapwright.sqlite';

function refused(sql: string, why: RegExp): void {
  const r = checkQuery(sql, { tables: TABLES });
  assert.equal(r.ok, false, `should be refused: ${sql}`);
  if (!r.ok) assert.match(r.reason, why, sql);
}

function passes(sql: string): string {
  const r = checkQuery(sql, { tables: TABLES });
  assert.ok(r.ok, `should pass: ${sql}\n${r.ok ? '' : r.reason}`);
  return r.ok ? r.sql : '';
}

/** Runs each entry as its own test; at least `min` per class, so the corpus cannot quietly shrink. */
function corpus(name: string, entries: string[], why: RegExp, min = 25): void {
  describe(name, () => {
    it(`has at least ${min} spellings`, () => assert.ok(entries.length >= min, `${entries.length} entries`));
    entries.forEach((sql, i) => it(`#${i + 1} ${JSON.stringify(sql).slice(0, 110)}`, () => refused(sql, why)));
  });
}

const TABLE_REFUSAL = /another database or datasource|No table|string literal|table name is expected|not allowed in FROM|GDAL would read/;

corpus(
  'a datasource, another database or an unknown table as a table',
  [
    `SELECT * FROM "${URL}"."x"`,
    `SELECT * FROM "${URL}".x`,
    `SELECT * FROM [${URL}].[x]`,
    'SELECT * FROM `' + URL + '`.`x`',
    `SELECT * FROM "${APPDB}"."settings"`,
    `SELECT * FROM '${APPDB}'.'settings'`,
    `SELECT * FROM '${APPDB}'`,
    `SELECT * FROM "${APPDB}"`,
    `SELECT * FROM [${APPDB}]`,
    'SELECT * FROM `' + APPDB + '`',
    'SELECT * FROM main.nc',
    'SELECT * FROM temp.nc',
    'SELECT * FROM "main"."nc"',
    `SELECT * FROM nc, "${URL}"."x"`,
    `SELECT * FROM nc AS a, nc AS b, "${URL}"."x" AS c`,
    `SELECT * FROM nc JOIN "${URL}"."x" ON 1`,
    `SELECT * FROM nc LEFT OUTER JOIN "${URL}".x USING (id)`,
    `SELECT * FROM nc NATURAL JOIN [${URL}].x`,
    `SELECT * FROM nc CROSS JOIN "PG:dbname=secrets"."users"`,
    `SELECT * FROM (SELECT * FROM "${URL}"."x")`,
    `SELECT * FROM nc JOIN (SELECT * FROM [${APPDB}].[settings]) s ON 1`,
    `SELECT * FROM (nc JOIN "${URL}"."x" ON 1)`,
    `SELECT * FROM nc WHERE name IN (SELECT name FROM "${URL}"."x")`,
    `SELECT * FROM nc WHERE EXISTS (SELECT 1 FROM "${APPDB}"."settings")`,
    `SELECT (SELECT COUNT(*) FROM "${URL}"."x") AS n FROM nc`,
    `WITH a AS (SELECT * FROM "${URL}"."x") SELECT * FROM a`,
    `WITH a(v) AS (SELECT 1), b AS (SELECT * FROM "${APPDB}"."settings") SELECT * FROM a, b`,
    `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r, "${URL}"."x") SELECT * FROM r`,
    `SELECT * FROM nc UNION SELECT * FROM "${URL}"."x"`,
    `SELECT * FROM nc WHERE name IN "${URL}"."x"`,
    `SELECT * FROM nc WHERE name IN "${APPDB}"`,
    'SELECT * FROM nc WHERE name NOT IN main.nc',
    `SELECT * FROM "${URL}" . "x"`,
    `SELECT * FROM "${URL}"/* a comment */."x"`,
    `SELECT * FROM\n"${URL}"\n.\n"x"`,
    `SELECT * FROM "WFS:http://127.0.0.1:9/wfs"."layer"`,
    `SELECT * FROM "/vsizip//tmp/a.zip/x.shp"."x"`,
    'SELECT * FROM sqlite_master',
    'SELECT name FROM sqlite_schema',
    'SELECT * FROM geometry_columns',
    'SELECT * FROM spatial_ref_sys',
    "SELECT * FROM SpatialIndex WHERE f_table_name = 'nc'",
    'SELECT * FROM KNN',
    'SELECT * FROM ElementaryGeometries',
    'SELECT * FROM VirtualOGR',
    "SELECT * FROM VirtualOGR('/etc/passwd')",
    'SELECT * FROM nc JOIN',
    'SELECT * FROM 42',
  ],
  TABLE_REFUSAL,
);

const OGR_REFUSAL = /(ogr_|gdal_)\w*\(\) is not allowed|not allowed in FROM|GDAL would read|may hold only numbers/i;

corpus(
  'GDAL ogr_* and gdal_* functions, however spelled',
  [
    "SELECT ogr_geocode('Paris')",
    "SELECT OGR_GEOCODE('Paris')",
    "SELECT Ogr_GeoCode('Paris')",
    'SELECT "ogr_geocode"(\'Paris\')',
    "SELECT [ogr_geocode]('Paris')",
    "SELECT `ogr_geocode`('Paris')",
    "SELECT ogr_geocode ('Paris')",
    "SELECT ogr_geocode\n('Paris')",
    "SELECT ogr_geocode\t\r\n ('Paris')",
    "SELECT ogr_geocode /*x*/ ('Paris')",
    "SELECT ogr_geocode/**/('Paris')",
    "SELECT ogr_geocode -- c\n('Paris')",
    "SELECT ogr_geocode('Paris', 'lat', 'CACHE_FILE=/tmp/evil.csv', 'QUERY_TEMPLATE=http://127.0.0.1:9/?q=%s')",
    "SELECT ogr_geocode_reverse(2.35, 48.85, 'display_name')",
    "SELECT OGR_GEOCODE_REVERSE(ST_GeomFromText('POINT(2 48)'), 'name')",
    "SELECT ogr_datasource_load_layers('/home/me/.config/Mapwright/mapwright.sqlite')",
    "SELECT OGR_DATASOURCE_LOAD_LAYERS('/vsicurl/http://127.0.0.1:9/x.gpkg', 'x_')",
    "SELECT ogr_layer_Extent('nc')",
    "SELECT ogr_layer_SRID('nc'), ogr_layer_GeometryType('nc'), ogr_layer_FeatureCount('nc')",
    'SELECT ogr_version()',
    "SELECT ogr_deflate(x'00'), ogr_inflate(x'00')",
    "SELECT ogr_SetConfigOption('GDAL_HTTP_PROXY', 'evil:1')",
    "SELECT ogr_GetConfigOption('AWS_SECRET_ACCESS_KEY')",
    "SELECT gdal_get_pixel_value('/vsicurl/http://127.0.0.1:9/x.tif', 1, 'georef', 0, 0)",
    "SELECT gdal_get_layer_pixel_value('t', 1, 'georef', 0, 0)",
    'SELECT * FROM nc WHERE ogr_geocode(name) IS NOT NULL',
    'SELECT * FROM nc ORDER BY ogr_geocode(name)',
    'SELECT * FROM nc a JOIN nc b ON ogr_geocode(a.name) = b.name',
    'WITH g AS (SELECT ogr_geocode(name) FROM nc) SELECT * FROM g',
    "SELECT (SELECT ogr_geocode('x')) FROM nc",
    "SELECT CASE WHEN 1 THEN ogr_geocode('x') END FROM nc",
    "SELECT abs(length(ogr_geocode('x'))) FROM nc",
    "SELECT CAST(ogr_geocode('x') AS TEXT)",
    "SELECT CAST(1 AS DECIMAL(ogr_geocode('x')))",
    "SELECT 1 IN (ogr_geocode('x'))",
    'SELECT count(*) FILTER (WHERE ogr_geocode(name) IS NULL) FROM nc',
    "SELECT ogr_geocode('x') OVER () FROM nc",
    "SELECT * FROM json_each(ogr_geocode('x'))",
    "SELECT * FROM ogr_geocode('x')",
    "SELECT * FROM nc WHERE 1 IN ogr_datasource_load_layers('/x.gpkg')",
  ],
  OGR_REFUSAL,
);

const FILE_REFUSAL = /\(\) is not allowed|MATCH|not allowed in FROM/;

corpus(
  'load_extension, file readers and writers, database writers and unknown functions',
  [
    "SELECT load_extension('/tmp/evil.so')",
    "SELECT LOAD_EXTENSION('/tmp/evil.so', 'init')",
    'SELECT "load_extension"(\'/tmp/evil.so\')',
    "SELECT load_extension /* */ ('/tmp/evil.so')",
    "SELECT readfile('/etc/passwd')",
    "SELECT writefile('/tmp/x', 'y')",
    "SELECT edit('text')",
    "SELECT BlobFromFile('/etc/passwd')",
    "SELECT blobtofile(x'00', '/tmp/x')",
    "SELECT ImportSHP('/tmp/x', 't', 'UTF-8')",
    "SELECT ExportSHP('nc', 'geom', '/tmp/x', 'UTF-8')",
    "SELECT ImportDBF('/tmp/x.dbf', 't', 'UTF-8')",
    "SELECT ExportDBF('nc', '/tmp/x.dbf', 'UTF-8')",
    "SELECT ImportGeoJSON('/tmp/x.geojson', 't')",
    "SELECT ExportGeoJSON2('nc', 'geom', '/tmp/x.geojson')",
    "SELECT ExportKML('nc', 'geom', '/tmp/x.kml')",
    "SELECT ImportDXF('/tmp/x.dxf')",
    "SELECT ImportDXFfromDir('/tmp')",
    "SELECT ImportXLS('/tmp/x.xls', 't')",
    "SELECT ImportWFS('http://127.0.0.1:9/wfs', 'layer', 't')",
    "SELECT XB_LoadXML('/etc/passwd')",
    "SELECT XB_StoreXML(x'00', '/tmp/x.xml')",
    "SELECT XB_Create(x'00', 1, 1)",
    "SELECT zipfile_numshp('/tmp/a.zip')",
    "SELECT PROJ_SetDatabasePath('/tmp/proj.db')",
    'SELECT sqlite_compileoption_get(0)',
    "SELECT fts3_tokenizer('simple')",
    "SELECT CreateSpatialIndex('nc', 'geom')",
    'SELECT InitSpatialMetaData()',
    "SELECT RecoverGeometryColumn('nc', 'geom', 4326, 'POLYGON')",
    "SELECT DiscardGeometryColumn('nc', 'geom')",
    "SELECT DropGeoTable('nc')",
    'SELECT gpkgCreateBaseTables()',
    'SELECT gpkgInsertEpsgSRID(4326)',
    "SELECT CreateTopology('t', 4326, 0, 0)",
    "SELECT TopoGeo_AddPoint('t', MakePoint(0, 0), 0)",
    "SELECT ST_InitTopoGeo('t')",
    "SELECT CreateNetwork('n')",
    "SELECT SqlProc_Execute(x'00')",
    "SELECT StoredProc_Execute('p')",
    "SELECT StoredVar_Register('a', 'b', 1)",
    "SELECT WMS_RegisterGetMap('http://127.0.0.1:9/wms', 'x', 'y')",
    'SELECT CreateUUID()',
    'SELECT no_such_function(1)',
    "SELECT sum(x) OVER () FROM nc WHERE name MATCH ('x')",
    "SELECT * FROM nc WHERE name MATCH 'x'",
    'SELECT "pop"(1) FROM nc',
    'SELECT nc(1) FROM nc',
    'SELECT randomblob(1e9), zeroblob(1e9)',
    'SELECT over(1)',
  ],
  FILE_REFUSAL,
);

corpus(
  'ATTACH, PRAGMA, other statements and several statements',
  [
    "ATTACH DATABASE '/home/me/.config/Mapwright/mapwright.sqlite' AS app",
    "attach '/tmp/x.db' as x",
    "SELECT 1; ATTACH '/tmp/x.db' AS x",
    "WITH a AS (SELECT 1) ATTACH '/tmp/x.db' AS x",
    "SELECT * FROM nc WHERE 1 = (SELECT 1) ; ATTACH '/tmp/x' AS x",
    'DETACH x',
    'PRAGMA table_info(nc)',
    'pragma writable_schema = 1',
    "SELECT * FROM pragma_table_info('nc')",
    'SELECT * FROM "pragma_table_info"(\'nc\')',
    'SELECT * FROM pragma_function_list',
    "SELECT * FROM nc JOIN pragma_index_list('nc')",
    "SELECT name FROM nc WHERE name IN pragma_table_info('nc')",
    'SELECT 1; SELECT 2',
    'SELECT 1 ;; SELECT 2 ;',
    "INSERT INTO nc (name) VALUES ('x')",
    "WITH x AS (SELECT 1) INSERT INTO nc (name) SELECT 'x' FROM x",
    'WITH x AS (SELECT 1) DELETE FROM nc',
    "UPDATE nc SET name = 'x'",
    'DELETE FROM nc',
    'DROP TABLE nc',
    'CREATE TABLE x AS SELECT * FROM nc',
    "CREATE VIRTUAL TABLE x USING VirtualOGR('/etc/passwd')",
    "VACUUM INTO '/tmp/copy.db'",
    'REPLACE INTO nc VALUES (1)',
    'EXPLAIN SELECT 1',
    'BEGIN',
    'SAVEPOINT a',
    'ANALYZE',
    'SELECT * FROM nc RETURNING *',
    'VALUES (1)',
    '(SELECT 1)',
    'SELECT 1 INTO x FROM nc',
    'SELECT RAISE(IGNORE)',
    '   ;  ',
  ],
  /Only a SELECT|one statement|not allowed|PRAGMA|No table|empty|another database or datasource/,
);

const SCANNER_REFUSAL = /comment|contains a quote|GDAL would read/;

corpus(
  "text GDAL's own table-name scanner would read (comments, [brackets], `backticks`, word endings)",
  [
    `SELECT 1 /* FROM "${URL}"."x" */ FROM nc`,
    `SELECT 1 FROM nc -- FROM "${URL}"."x"`,
    `SELECT 1 FROM nc -- JOIN "${APPDB}".settings\n`,
    `SELECT 1 /* JOIN [${URL}].x */ FROM nc`,
    '/* http://127.0.0.1:9/ */ SELECT 1 FROM nc',
    `SELECT 1 FROM nc /* ${URL} */`,
    'SELECT 1 FROM nc /* FROM a.b */',
    "SELECT 1 FROM nc -- 'x'.'y'",
    `SELECT 1 AS [x FROM "${URL}"."x"] FROM nc`,
    'SELECT 1 AS `x JOIN "' + URL + '"."x"` FROM nc',
    "SELECT 1 AS [it's] FROM nc",
    `SELECT 1 AS [it's] FROM nc WHERE 1 OR ' FROM "${URL}"."x" ' = 'x'`,
    "SELECT 1 AS `it's` FROM nc",
    'SELECT 1 AS `a"b` FROM nc',
    'SELECT 1 AS [a"b] FROM nc',
    `SELECT 1 AS afrom "${URL}"."x" FROM nc`,
    `SELECT 1 AS xjoin "${URL}"."x" FROM nc`,
    `SELECT 1 AS xinto "${URL}"."x" FROM nc`,
    `SELECT 1 AS xupdate "${URL}"."x" FROM nc`,
    'SELECT nc.valid_from -nc.x FROM nc',
    'SELECT 1 FROM nc WHERE 1 = name_from +nc.x',
    `SELECT 1 FROM nc WHERE name IS DISTINCT FROM "${URL}"."x"`,
    `SELECT 1 AS ogr_layer_x, abs("${URL}".x) FROM nc`,
    `SELECT name AS my_ogr_layer_, length("${APPDB}".settings) FROM nc`,
    `SELECT [a from ${APPDB}].c FROM nc`,
    'SELECT [a join b].c FROM nc',
    "SELECT 1 FROM nc WHERE name = 'x' /* it's FROM a.b */",
  ],
  SCANNER_REFUSAL,
);

corpus(
  'text SQLite would read differently (illegal tokens, parameters, unterminated literals)',
  [
    "SELECT 'unterminated",
    'SELECT "unterminated',
    'SELECT [unterminated',
    'SELECT `unterminated',
    'SELECT 1 /* unterminated',
    "SELECT x'0' FROM nc",
    "SELECT x'zz' FROM nc",
    'SELECT 1abc FROM nc',
    'SELECT 0x FROM nc',
    'SELECT 1e FROM nc',
    'SELECT ? FROM nc',
    'SELECT ?1 FROM nc',
    'SELECT :name FROM nc',
    'SELECT @name FROM nc',
    'SELECT $name FROM nc',
    'SELECT #1 FROM nc',
    'SELECT 1\u000b FROM nc',
    'SELECT 1\u0000 FROM nc',
    'SELECT 1 ! 2',
    "SELECT 'a' (1)",
    "SELECT x'00' (1)",
    'SELECT 1 (2)',
    'SELECT (1',
    'SELECT 1)',
    "SELECT ogr_geocode\u00a0('x')",
  ],
  /unterminated|malformed|parameter|unexpected character|followed by '\('|unbalanced|not allowed/,
);

describe('ordinary queries keep working', () => {
  const valid = [
    'SELECT * FROM nc',
    "select name, replace(name, 'a', 'b') from \"NC\";",
    'SELECT \'DROP TABLE x; DELETE\' AS s, "update" FROM nc -- a note; DELETE\n',
    'SELECT last_update, created_at FROM nc /* INSERT */',
    'SELECT w.name, b.hdi FROM countries w JOIN "world bank" b ON b.iso_a2 = w.iso_a2 WHERE w.name = \'Namibia\'',
    'SELECT * FROM nc a LEFT JOIN countries c ON ST_Intersects(a.geom, c.geom), "Roads 2024" r',
    'SELECT * FROM (nc JOIN countries USING (name))',
    'SELECT * FROM nc NATURAL JOIN countries',
    'WITH big AS (SELECT * FROM countries WHERE pop > 1e8) SELECT COUNT(*) FROM big',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r',
    'WITH a AS MATERIALIZED (SELECT 1 AS x), b(y) AS NOT MATERIALIZED (SELECT x FROM a) SELECT * FROM a, b',
    'SELECT name, (SELECT COUNT(*) FROM countries c WHERE ST_Intersects(c.geom, nc.geom)) AS n FROM nc',
    'SELECT * FROM nc WHERE name IN (SELECT name FROM countries) AND NOT EXISTS (SELECT 1 FROM "world bank")',
    'SELECT * FROM nc WHERE name IN countries',
    'SELECT name, rank() OVER (PARTITION BY continent ORDER BY pop DESC) AS r, lag(pop, 1) OVER w FROM countries WINDOW w AS (ORDER BY pop)',
    "SELECT continent, count(*) FILTER (WHERE pop > 1e6) AS big, sum(pop), avg(pop), group_concat(name, ', ') FROM countries GROUP BY continent HAVING count(*) > 2 ORDER BY 2 DESC LIMIT 10 OFFSET (5)",
    "SELECT CASE WHEN pop > 1e8 THEN 'big' WHEN pop > 1e6 THEN 'mid' ELSE 'small' END AS size FROM countries",
    'SELECT CAST(pop AS INTEGER), CAST(area AS DECIMAL(10, 2)), CAST(name AS VARCHAR(20)) FROM countries',
    'SELECT ST_Area(ST_Transform(geom, 3857)), ST_AsText(ST_Centroid(geom)), AsGeoJSON(ST_Buffer(geom, 0.1)), ST_X(ST_PointOnSurface(geom)) FROM nc',
    'SELECT ST_Union(geom), ST_Collect(geom), Extent(geom) FROM nc',
    "SELECT ST_Distance(MakePoint(0, 0, 4326), ST_GeomFromText('POINT(1 1)', 4326))",
    "SELECT value FROM json_each('[1, 2, 3]') WHERE value > 1",
    'SELECT name FROM nc WHERE name IN json_each(\'["Ashe"]\')',
    "SELECT json_extract('{\"a\": 1}', '$.a'), '{\"a\": 2}' ->> '$.a', '{\"a\": 3}' -> '$.a'",
    "SELECT * FROM countries WHERE url LIKE 'http://%' OR url LIKE 'https://%' OR note = '/vsicurl/'",
    'SELECT \'FROM "/vsicurl/http://h/x.geojson"."x"\' AS text_is_fine FROM nc',
    'SELECT "name" AS "FROM a.b", [name] AS [FROM x], `name` AS `JOIN y` FROM nc',
    "SELECT name FROM nc WHERE name LIKE ('A%') ESCAPE '\\' AND name GLOB 'A*' AND name REGEXP '^A'",
    "SELECT max(pop, 0), min(pop, 1), coalesce(NULL, 1), iif(pop > 1, 1, 0), printf('%d', pop) FROM countries",
    'SELECT "abs"(-1), [round](1.5), `upper`(\'a\')',
    'SELECT count(DISTINCT continent), total(pop), median(pop), stddev_pop(pop) FROM countries',
    'SELECT * FROM nc UNION ALL SELECT * FROM nc EXCEPT SELECT * FROM nc INTERSECT SELECT * FROM nc',
    "SELECT name FROM countries WHERE continent IS NOT DISTINCT FROM 'Africa' AND pop IS NOT NULL AND pop NOTNULL",
    "SELECT x'00ff', 0x1F, .5, 1.e3, 1e-3, -2, CURRENT_DATE, date('now'), strftime('%Y', 'now')",
    'SELECT (1, 2) = (1, 2), 1 BETWEEN 0 AND 2, name COLLATE NOCASE FROM nc ORDER BY name COLLATE NOCASE',
    'SELECT n.name FROM nc n WHERE n.name_from IS NULL',
    'SELECT * FROM nc INDEXED BY idx NOT INDEXED',
    'SELECT * FROM "Roads 2024" WHERE "Roads 2024".type = \'x\'',
    'SELECT*FROM nc',
  ];
  for (const sql of valid) it(JSON.stringify(sql).slice(0, 120), () => void passes(sql));

  it('runs the query without comments or trailing semicolons, and reports what it reads and calls', () => {
    const r = checkQuery('/* totals */ SELECT COUNT(*) -- how many\nFROM "NC" ;; ', { tables: TABLES });
    assert.deepEqual(r, { ok: true, sql: 'SELECT COUNT(*)  \nFROM "NC"', tables: ['nc'], functions: ['count'] });
    assert.equal(passes('SELECT*FROM nc'), 'SELECT *FROM nc');
    const w = checkQuery('WITH t AS (SELECT 1) SELECT * FROM t, nc', { tables: TABLES });
    assert.ok(w.ok && w.tables.join() === 'nc', 'a CTE is not a project table');
  });

  it('refusals name the function or table and what is allowed', () => {
    const f = checkQuery("SELECT ogr_geocode('x')", { tables: TABLES });
    assert.ok(!f.ok);
    assert.match(f.reason, /ogr_geocode\(\) is not allowed: GDAL's ogr_\* functions .* Allowed are SQLite core functions .*ST_Area/);
    const t = checkQuery('SELECT * FROM roads', { tables: TABLES });
    assert.ok(!t.ok);
    assert.match(t.reason, /No table roads: .* Tables: "nc", "countries", "world bank", "Roads 2024"/);
    const typo = checkQuery('SELECT ST_Aera(geom) FROM nc', { tables: TABLES });
    assert.ok(!typo.ok);
    assert.match(typo.reason, /Did you mean st_area/);
  });
});
