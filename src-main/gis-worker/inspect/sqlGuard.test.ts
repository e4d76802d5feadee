/**
 * The SQL capability boundary against the real GDAL (the one gdal-async links) and the real
 * worker process. A local HTTP server stands for "somewhere else": every `/vsicurl/` request
 * GDAL makes reaches it, so "nothing was opened" is a count of zero requests, not a guess.
 *
 * 1. What GDAL's SQLite dialect itself does (in-process, no checker): a table name may be any
 *    datasource — a URL or a local file is opened and read; its table-name scanner skips '…'
 *    and "…" literals but reads comments and [bracket]/`backtick` names as SQL, is fooled by a
 *    quote inside them, and matches FROM/JOIN at the end of longer words and after ogr_layer_.
 *    Each case is paired with the checker's verdict: whatever GDAL would open is refused.
 * 2. A generated corpus (every combination of datasource spelling, trigger word, wrapping and
 *    query shape): each query the checker lets through is run through GDAL, and none may
 *    reach the server.
 * 3. Through the worker: hostile queries and filters are refused (bad_input, naming the
 *    function or table) before GDAL sees them; ordinary ones still give GDAL's own answers.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CallParams, WorkerCallName } from '../../../src-shared/worker/workerCalls.js';
import type { Dataset } from 'gdal-async';
import { checkQuery } from '../../../src-shared/sql/checkQuery.js';
import type { GisWorkerClient } from '../../worker-host/GisWorkerClient.js';
import { gdal } from '../gdal.js';
import { fixture, gdalCli, makeTempDir, ogrSummary, rejectsAsBadInput, skipReason, startWorker } from '../testSupport.js';
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads of JSON answers

/**
 * A server that answers 404 to everything and logs each path asked for, in its own process:
 * a GDAL call in this process can block this event loop (gdal-async's dataset lock) while
 * GDAL waits for the server.
 */
async function startServer(dir: string): Promise<{ port: number; requests(): string[]; stop(): void }> {
  const log = path.join(dir, 'requests.log');
  writeFileSync(log, '');
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs');
       const s = require('http').createServer((req, res) => { fs.appendFileSync(${JSON.stringify(log)}, req.url + '\\n'); res.writeHead(404); res.end(); });
       s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\\n'));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
    child.once('error', reject);
  });
  return { port, requests: () => readFileSync(log, 'utf8').split('\n').filter(Boolean), stop: () => child.kill() };
}

let unique = 0;

describe('the SQL guard against the real GDAL', { skip: skipReason }, () => {
  const tmp = makeTempDir('mapwright-sqlguard-');
  let srv: Awaited<ReturnType<typeof startServer>>;
  let ds: Dataset;
  const vrtPath = `/vsimem/sqlguard_${process.pid}.vrt`;
  /** A URL GDAL would fetch, unique per case so GDAL's cache cannot hide a request. */
  const url = (host = '127.0.0.1') => `/vsicurl/http://${host}:${srv.port}/case${++unique}`;
  const reached = (u: string) => srv.requests().filter((r) => u.endsWith(r) || r.startsWith(u.replace(/^.*:\d+/, ''))).length;
  /** Runs `sql` through GDAL's SQLite dialect; GDAL's error text, or null. */
  async function gdalRun(sql: string): Promise<{ error: string | null; value: unknown }> {
    try {
      const r = await ds.executeSQLAsync(sql, undefined, 'SQLite');
      const f = await r.features.firstAsync();
      return { error: null, value: f ? Object.values(f.fields.toObject())[0] : null };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err), value: null };
    }
  }

  before(async () => {
    srv = await startServer(tmp.dir);
    gdal.vsimem.set(
      Buffer.from(
        `<OGRVRTDataSource><OGRVRTLayer name="nc"><SrcDataSource>${fixture('nc.gpkg')}</SrcDataSource><SrcLayer>nc.gpkg</SrcLayer></OGRVRTLayer></OGRVRTDataSource>`,
      ),
      vrtPath,
    );
    ds = await gdal.openAsync(vrtPath);
  });
  after(() => {
    ds.close();
    gdal.vsimem.release(vrtPath);
    srv.stop();
    tmp.cleanup();
  });

  const verdict = (sql: string) => checkQuery(sql, { tables: ['nc'] });

  test('GDAL opens whatever a table name names: a URL is fetched, a local file is read', async () => {
    const u = url();
    const fetched = await gdalRun(`SELECT COUNT(*) FROM "${u}.geojson"."x"`);
    assert.match(fetched.error ?? '', /Cannot open datasource/);
    assert.ok(reached(`${u}.geojson`) > 0, 'GDAL requested the URL');
    const copy = path.join(tmp.dir, 'elsewhere.gpkg');
    copyFileSync(fixture('nc.gpkg'), copy);
    const read = await gdalRun(`SELECT COUNT(*) FROM "${copy}"."nc.gpkg"`);
    assert.equal(read.value, 100, 'GDAL read the other file');
    assert.equal(verdict(`SELECT COUNT(*) FROM "${u}.geojson"."x"`).ok, false);
    assert.equal(verdict(`SELECT COUNT(*) FROM "${copy}"."nc.gpkg"`).ok, false);
  });

  test("a where filter on a SQLite source is SQLite's: GDAL's ogr_* functions are there and fetch URLs", async () => {
    const u = url();
    const meuse = await gdal.openAsync(fixture('meuse.sqlite'));
    try {
      const layer = meuse.layers.get(0);
      layer.setAttributeFilter(`ogr_datasource_load_layers('${u}.gpkg') IS NULL`);
      await layer.features.countAsync();
      assert.ok(reached(`${u}.gpkg`) > 0, 'the filter made GDAL request the URL');
    } finally {
      meuse.close();
    }
  });

  test("'…' and \"…\" literals are skipped by GDAL's table-name scanner: text in them is never opened, and the checker lets it through", async () => {
    const cases = [
      (u: string) => `SELECT COUNT(*) AS n, 'x FROM "${u}"."a"' AS s FROM nc`,
      (u: string) => `SELECT COUNT(*) AS n FROM nc WHERE 'JOIN "${u}"."a"' <> ''`,
      (u: string) => `SELECT COUNT(*) AS n FROM nc WHERE 'it''s FROM "${u}"."a" ''quoted''' <> ''`,
      (u: string) => `SELECT COUNT(*) AS "FROM ${u}.a" FROM nc`,
      (u: string) => `SELECT COUNT(*) AS "x"" FROM ""${u}"".""a" FROM nc`,
    ];
    for (const make of cases) {
      const u = url();
      const sql = make(u);
      const r = await gdalRun(sql);
      assert.equal(r.error, null, sql);
      assert.equal(r.value, 100, sql);
      assert.equal(reached(u), 0, `GDAL did not open the literal's text: ${sql}`);
      assert.equal(verdict(sql).ok, true, sql);
    }
  });

  test('comments, [bracket] and `backtick` names, quotes inside them, word endings and ogr_layer_ make GDAL open a datasource — the checker refuses each', async () => {
    const cases: [string, (u: string) => string][] = [
      ['a block comment', (u) => `SELECT COUNT(*) AS n /* FROM "${u}"."a" */ FROM nc`],
      ['a line comment', (u) => `SELECT COUNT(*) AS n -- FROM "${u}"."a"\nFROM nc`],
      ['a [bracket] name', (u) => `SELECT COUNT(*) AS [x FROM "${u}"."a"] FROM nc`],
      ['a `backtick` name', (u) => 'SELECT COUNT(*) AS `x JOIN "' + u + '"."a"` FROM nc'],
      [
        "a quote in a [bracket] name, shifting GDAL's idea of the next literal",
        (u) => `SELECT COUNT(*) AS [it's] FROM nc WHERE 1 OR ' FROM "${u}"."a" ' = 'x'`,
      ],
      ['a quote in a `backtick` name', (u) => "SELECT COUNT(*) AS `it's` FROM nc WHERE 1 OR ' FROM \"" + u + '"."a" \' = \'x\''],
      ['FROM at the end of a longer word', (u) => `SELECT COUNT(*) AS afrom "${u}"."a" FROM nc`],
      ['JOIN at the end of a longer word', (u) => `SELECT COUNT(*) AS nojoin "${u}"."a" FROM nc`],
      ['a name starting with ogr_layer_', (u) => `SELECT COUNT(*) AS ogr_layer_n, length("${u}".a) FROM nc`],
      ['IS DISTINCT FROM a qualified name', (u) => `SELECT COUNT(*) FROM nc WHERE NAME IS DISTINCT FROM "${u}".a`],
    ];
    for (const [what, make] of cases) {
      const u = url();
      const sql = make(u);
      await gdalRun(sql);
      assert.ok(reached(u) > 0, `GDAL opened the datasource in ${what}: ${sql}`);
      const v = verdict(sql);
      assert.equal(v.ok, false, `the checker refuses ${what}: ${sql}`);
    }
  });

  test('a generated corpus: no query the checker lets through makes GDAL open a datasource', async (t) => {
    const spellings = [
      (u: string) => `"${u}"."a"`,
      (u: string) => `"${u}".a`,
      (u: string) => `[${u}].a`,
      (u: string) => '`' + u + '`.a',
      (u: string) => `'${u}'.'a'`,
      (u: string) => `${u}.a`,
    ];
    const triggers = ['FROM ', 'join ', 'From\t', 'JOIN\n', 'INTO ', 'update ', 'xfrom ', 'ogr_layer_x(', 'nc, ', 'IN '];
    const wrappers = [
      (s: string) => s,
      (s: string) => `/* ${s} */`,
      (s: string) => `-- ${s}\n`,
      (s: string) => `[${s}]`,
      (s: string) => '`' + s + '`',
      (s: string) => `'${s}'`,
      (s: string) => `"${s}"`,
      (s: string) => `(${s})`,
      (s: string) => `[it's] ${s}`,
      (s: string) => `'it''s' ${s}`,
    ];
    const shapes = [
      (x: string) => `SELECT COUNT(*) AS n FROM nc ${x}`,
      (x: string) => `SELECT COUNT(*) AS n ${x} FROM nc`,
      (x: string) => `SELECT COUNT(*) AS n FROM nc WHERE 1 OR ${x}`,
      (x: string) => `SELECT COUNT(*) AS n FROM nc WHERE NAME = ${x}`,
      (x: string) => `WITH c AS (SELECT 1 AS v ${x}) SELECT COUNT(*) AS n FROM c, nc`,
    ];
    let total = 0;
    let passed = 0;
    let openedWhenRefused = 0;
    for (const spell of spellings) {
      for (const trigger of triggers) {
        for (const wrap of wrappers) {
          for (const shape of shapes) {
            // A dot-free host so that an unquoted name still reaches the server.
            const u = url('localhost');
            const sql = shape(wrap(trigger + spell(u)));
            total++;
            const v = verdict(sql);
            if (v.ok) {
              passed++;
              // What the worker runs (comments removed), and the text as written.
              await gdalRun(v.sql);
              await gdalRun(sql);
              assert.equal(reached(u), 0, `passed by the checker, yet GDAL opened ${u}: ${sql}`);
            } else if (total % 7 === 0) {
              // A sample of the refused ones, to show the corpus is hostile.
              await gdalRun(sql);
              if (reached(u) > 0) openedWhenRefused++;
            }
          }
        }
      }
    }
    t.diagnostic(
      `${total} queries; ${passed} passed the checker and opened nothing; ${openedWhenRefused} of a 1-in-7 sample of the refused ones made GDAL open a datasource`,
    );
    assert.equal(total, 3000);
    assert.ok(passed > 100, `${passed} of ${total} passed: the corpus exercises the checker's accepting side too`);
    assert.ok(openedWhenRefused > 20, `${openedWhenRefused} refused queries did make GDAL open a datasource: the corpus is hostile`);
  });
});

describe('the SQL guard in the GIS worker', { skip: skipReason }, () => {
  let client: GisWorkerClient;
  let srv: Awaited<ReturnType<typeof startServer>>;
  const tmp = makeTempDir('mapwright-sqlguard-worker-');
  const tables = [
    { name: 'nc', source: fixture('nc.gpkg') },
    { name: 'countries', source: fixture('countries.fgb') },
  ];
  const call = <F extends WorkerCallName>(fn: F, args: CallParams<F>) => client.call(fn, args) as Promise<Obj>;
  const fails = (fn: string, args: unknown, pattern: RegExp) =>
    rejectsAsBadInput(client.call(fn as WorkerCallName, args as never), pattern);
  before(async () => {
    process.env.GDAL_PAM_ENABLED = 'NO';
    srv = await startServer(tmp.dir);
    client = startWorker();
  });
  after(() => {
    client.dispose();
    srv.stop();
    tmp.cleanup();
  });

  test('hostile inspect.sql and save_query are refused before GDAL sees them: no request reaches the server, no file is written', async () => {
    const u = `/vsicurl/http://127.0.0.1:${srv.port}`;
    const copy = path.join(tmp.dir, 'app.sqlite');
    copyFileSync(fixture('meuse.sqlite'), copy);
    const hostile: [string, RegExp][] = [
      [`SELECT * FROM "${u}/a.geojson"."a"`, /names another database or datasource/],
      [`SELECT * FROM "${copy}"."meuse.sqlite"`, /names another database or datasource/],
      [`SELECT * FROM nc JOIN [${u}/b.geojson].b ON 1`, /names another database or datasource/],
      [`SELECT * FROM nc WHERE NAME IN (SELECT name FROM "${u}/c.geojson"."c")`, /names another database or datasource/],
      [`WITH x AS (SELECT * FROM "${u}/d.geojson".d) SELECT * FROM x`, /names another database or datasource/],
      [`SELECT COUNT(*) /* FROM "${u}/e.geojson"."e" */ FROM nc`, /comment/],
      [`SELECT COUNT(*) AS [x FROM "${u}/f.geojson"."f"] FROM nc`, /contains a quote/],
      [`SELECT COUNT(*) AS [x FROM ${u}/f2.f] FROM nc`, /GDAL would read/],
      [`SELECT COUNT(*) AS afrom "${u}/g.geojson"."g" FROM nc`, /GDAL would read/],
      [
        `SELECT ogr_geocode('Paris', '', 'QUERY_TEMPLATE=http://127.0.0.1:${srv.port}/geo?q=%s', 'WRITE_CACHE=NO')`,
        /ogr_geocode\(\) is not allowed/,
      ],
      [
        `SELECT "OGR_GEOCODE" /* x */ ('Paris', '', 'QUERY_TEMPLATE=http://127.0.0.1:${srv.port}/geo?q=%s')`,
        /OGR_GEOCODE\(\) is not allowed/,
      ],
      [`SELECT ogr_datasource_load_layers('${u}/h.gpkg')`, /ogr_datasource_load_layers\(\) is not allowed/],
      [`SELECT gdal_get_pixel_value('${u}/i.tif', 1, 'pixel', 0, 0)`, /gdal_get_pixel_value\(\) is not allowed/],
      ["SELECT load_extension('/tmp/evil.so')", /load_extension\(\) is not allowed/],
      [`ATTACH '${copy}' AS app`, /Only a SELECT/],
      ["SELECT * FROM pragma_table_info('nc')", /pragma_table_info\(\) is not allowed in FROM/],
      ['SELECT * FROM sqlite_master', /No table sqlite_master/],
      ["SELECT 1; SELECT ogr_geocode('x')", /one statement/],
    ];
    for (const [sql, why] of hostile)
      await fails('inspect.sql', { sql, tables, limit: 5, include_geometry: false, max_chars: 60_000 }, why);
    const out = path.join(tmp.dir, 'out.gpkg');
    await fails(
      'inspect.save_query',
      { sql: `SELECT * FROM "${u}/j.geojson"."j"`, tables, output: `${out}|layername=x` },
      /another database or datasource/,
    );
    await fails(
      'inspect.save_query',
      { sql: `SELECT ogr_datasource_load_layers('${u}/k.gpkg') AS x FROM nc`, tables, output: `${out}|layername=x` },
      /ogr_datasource_load_layers\(\) is not allowed/,
    );
    assert.equal(existsSync(out), false, 'nothing was written');
    assert.deepEqual(srv.requests(), [], 'GDAL never saw a hostile query');
  });

  test('hostile where filters are refused naming the function; on a SQLite source GDAL would otherwise fetch the URL', async () => {
    const u = `/vsicurl/http://127.0.0.1:${srv.port}`;
    const hostile: [string, string, RegExp][] = [
      [fixture('meuse.sqlite'), `ogr_datasource_load_layers('${u}/w1.gpkg') IS NULL`, /ogr_datasource_load_layers\(\) is not allowed/],
      [
        fixture('meuse.sqlite'),
        `zinc > 1 AND "ogr_geocode"('Paris', '', 'QUERY_TEMPLATE=http://127.0.0.1:${srv.port}/g?q=%s') IS NULL`,
        /ogr_geocode\(\) is not allowed/,
      ],
      [fixture('meuse.sqlite'), 'ogr_version() IS NOT NULL', /ogr_version\(\) is not allowed/],
      [fixture('nc.gpkg'), "gdal_get_layer_pixel_value('x', 1, 'pixel', 0, 0) > 0", /gdal_get_layer_pixel_value\(\) is not allowed/],
      [fixture('nc.gpkg'), 'ImportFromEPSG(4326) > 0', /ImportFromEPSG\(\) is not allowed/],
      [fixture('nc.gpkg'), 'NAME IN (SELECT name FROM sqlite_master)', /'SELECT' is not allowed/],
      [fixture('countries.fgb'), "load_extension('/tmp/evil.so') IS NULL", /load_extension\(\) is not allowed/],
      [fixture('countries.fgb'), 'name = 1 /* c */', /comments are not allowed/],
    ];
    for (const [source, where, why] of hostile) {
      await fails(
        'inspect.query_features',
        {
          source,
          where,
          bbox: null,
          geometry: null,
          filter_crs: 'EPSG:4326',
          fields: null,
          limit: 5,
          include_geometry: false,
          max_chars: 60_000,
        },
        why,
      );
    }
    assert.deepEqual(srv.requests(), [], 'GDAL never saw a hostile filter');
  });

  test('ordinary queries and filters still work, with the answers GDAL itself gives', async () => {
    const q = async (sql: string) =>
      (await call('inspect.sql', { sql, tables, limit: 1000, include_geometry: false, max_chars: 60_000 })).rows as Obj[];
    const referee = (sql: string) =>
      Number(/= (\d+)/.exec(gdalCli('ogrinfo', ['-ro', '-q', '-dialect', 'SQLite', '-sql', sql, fixture('nc.gpkg')]))![1]);

    assert.deepEqual(await q('SELECT COUNT(*) AS n FROM nc'), [{ n: ogrSummary(fixture('nc.gpkg')).featureCount }]);
    const big = await q('WITH big AS (SELECT NAME, AREA FROM nc WHERE AREA > 0.2) SELECT COUNT(*) AS n FROM big -- the big counties\n;');
    assert.deepEqual(big, [{ n: referee('SELECT COUNT(*) AS n FROM "nc.gpkg" WHERE AREA > 0.2') }]);
    const ranked = await q(
      "SELECT NAME, rank() OVER (ORDER BY AREA DESC, NAME) AS r, CASE WHEN AREA > 0.2 THEN 'big' ELSE 'small' END AS size, CAST(AREA * 1000 AS INTEGER) AS a FROM nc ORDER BY r LIMIT 3",
    );
    assert.deepEqual(
      ranked.map((r) => r.r),
      [1, 2, 3],
    );
    assert.equal(ranked[0]!.size, 'big');
    const joined = await q(
      "SELECT COUNT(*) AS n FROM nc JOIN countries c ON ST_Intersects(nc.geom, c.GEOMETRY) WHERE c.name = 'United States of America'",
    );
    assert.equal(joined[0]!.n, 100);
    const sub = await q(
      'SELECT COUNT(*) AS n FROM nc WHERE NAME IN (SELECT NAME FROM nc WHERE SID74 > 10) AND ST_Area(ST_Transform(geom, 3857)) > 0',
    );
    assert.deepEqual(sub, [{ n: referee('SELECT COUNT(*) AS n FROM "nc.gpkg" WHERE SID74 > 10') }]);
    const json = await q("SELECT SUM(value) AS s FROM json_each('[1, 2, 3]')");
    assert.deepEqual(json, [{ s: 6 }]);
    const literal = await q(
      'SELECT COUNT(*) AS n FROM nc WHERE NAME <> \'FROM "/vsicurl/http://127.0.0.1:9/x"."x"\' AND NAME NOT LIKE \'http://%\'',
    );
    assert.deepEqual(literal, [{ n: 100 }]);

    const where = async (source: string, filter: string) =>
      (
        await call('inspect.query_features', {
          source,
          where: filter,
          bbox: null,
          geometry: null,
          filter_crs: 'EPSG:4326',
          fields: null,
          limit: 1,
          include_geometry: false,
          max_chars: 60_000,
        })
      ).total_count as number;
    const ogrWhere = (file: string, layer: string, filter: string) => ogrSummary(file, layer, ['-where', filter]).featureCount;
    assert.equal(
      await where(fixture('nc.gpkg'), "abs(area) > 0.2 AND name LIKE '%a%'"),
      ogrWhere(fixture('nc.gpkg'), 'nc.gpkg', "abs(AREA) > 0.2 AND NAME LIKE '%a%'"),
    );
    assert.equal(await where(fixture('nc.gpkg'), 'fid <= 10 AND ST_Area(geom) > 0'), 10);
    assert.equal(
      await where(fixture('countries.fgb'), "name IN ('France', 'Germany') OR FID < 3"),
      ogrWhere(fixture('countries.fgb'), 'countries', "name IN ('France', 'Germany') OR FID < 3"),
    );
    assert.equal(await where(fixture('meuse.sqlite'), 'zinc > 1000'), ogrWhere(fixture('meuse.sqlite'), 'meuse.sqlite', 'zinc > 1000'));
    assert.deepEqual(srv.requests(), []);
  });
});
