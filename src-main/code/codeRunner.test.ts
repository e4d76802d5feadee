import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gdal } from '../gis-worker/gdal.js';
import { sandboxSupport } from '../plugins/executors/bwrapSandbox.js';
import { CodeRunFailure, runCode, type CodeRunOptions } from './codeRunner.js';
import { codeRunKit, skipReason } from './testing/codeRunKit.js';

const kit = codeRunKit();
const sandboxed = (await sandboxSupport()).available;

function run(code: string, over: Partial<CodeRunOptions> = {}) {
  return runCode({
    code,
    layers: kit.layers,
    outputsDir: kit.outputsDir,
    snippetHost: kit.snippetHost,
    broker: kit.broker,
    sandbox: 'auto',
    hidePaths: [kit.home],
    signal: new AbortController().signal,
    timeoutMs: 20_000,
    ...over,
  });
}

/** The run's failure (it must fail). */
async function failure(code: string, over: Partial<CodeRunOptions> = {}): Promise<CodeRunFailure> {
  const before = runFolders().length;
  try {
    await run(code, over);
  } catch (err) {
    assert.ok(err instanceof CodeRunFailure, `a CodeRunFailure, got ${String(err)}`);
    assert.equal(runFolders().length, before, 'a failed run leaves no folder');
    return err;
  }
  assert.fail('the run should have failed');
}

/** No run folder is left in the outputs folder (failed runs leave nothing). */
function runFolders(): string[] {
  return readdirSync(kit.outputsDir).filter((n) => n.startsWith('code-'));
}

describe('code.run_js runner: real runs', { skip: skipReason }, () => {
  test('filters and buffers nc.gpkg into an output GeoPackage (checked with gdal-async)', async () => {
    const r = await run(`
      const nc = await layers.open('nc');
      print(nc.kind, nc.featureCount, nc.geometryType, nc.srs.epsg, nc.fields.length > 5);
      const out = await output('big_counties', 'gpkg', {
        geometryType: 'MultiPolygon', srs: nc.srs.epsg,
        fields: [{ name: 'name', type: 'string' }, { name: 'area', type: 'real' }, { name: 'births', type: 'integer' }],
      });
      const rows = [];
      for await (const f of nc.features({ where: 'AREA > 0.2' })) {
        rows.push({ geometry: await geo.buffer(f.geometry, 0.01), properties: { name: f.properties.NAME, area: await geo.area(f.geometry), births: f.properties.BIR74 } });
      }
      print('added', await out.addFeatures(rows));
    `);
    assert.equal(r.printed, 'vector 100 MultiPolygon 4267 true\nadded 11\n');
    assert.equal(r.outputs.length, 1);
    const [out] = r.outputs;
    assert.equal(out!.kind, 'gpkg');
    assert.ok(out!.path.startsWith(kit.outputsDir));
    const ds = gdal.open(out!.path);
    const layer = ds.layers.get(0);
    assert.equal(layer.name, 'big_counties');
    assert.equal(layer.features.count(), 11);
    assert.deepEqual(layer.fields.getNames(), ['name', 'area', 'births']);
    const src = gdal.open(join(kit.layers[0]!.source)).layers.get(0);
    src.setAttributeFilter("NAME = 'Robeson'");
    const robeson = src.features.first();
    layer.setAttributeFilter("name = 'Robeson'");
    const f = layer.features.first();
    assert.ok(f, 'Robeson is there');
    assert.ok(Math.abs((f.fields.get('area') as number) - (robeson.getGeometry() as gdal.MultiPolygon).getArea()) < 1e-9);
    assert.equal(f.fields.get('births'), robeson.fields.get('BIR74'));
    const grown = (f.getGeometry() as gdal.Polygon).getArea();
    assert.ok(grown > (robeson.getGeometry() as gdal.MultiPolygon).getArea(), 'the buffer grew it');
    assert.equal(layer.srs?.getAuthorityCode(null), '4267');
    ds.close();
    assert.ok(r.isolation.permissionFlag, 'the permission model held');
    console.log(`# start-up ${r.startupMs} ms, whole run ${r.totalMs} ms, sandboxed: ${r.isolation.sandboxed}`);
  });

  test('reads the DEM in a tile and writes a GeoTIFF output (checked with gdal-async)', async () => {
    const r = await run(`
      const dem = await layers.open('elev');
      const w = Math.min(dem.width, 40), h = Math.min(dem.height, 30);
      const px = await dem.read(1, { x: 0, y: 0, width: w, height: h });
      const out = await output('doubled', 'tif', { width: w, height: h, geoTransform: dem.geoTransform, srs: dem.srs.wkt, dataType: 'Float32', nodata: -9999 });
      await out.write(1, undefined, px.map((v) => (v === dem.nodata[0] ? null : v * 2)));
      print(dem.kind, dem.width, dem.height, dem.bandCount);
    `);
    const [out] = r.outputs;
    assert.equal(out!.kind, 'tif');
    const src = gdal.open(kit.layers[1]!.source);
    const ds = gdal.open(out!.path);
    const w = Math.min(src.rasterSize.x, 40);
    const h = Math.min(src.rasterSize.y, 30);
    assert.deepEqual(ds.rasterSize, { x: w, y: h });
    assert.deepEqual(ds.geoTransform, src.geoTransform);
    const nodata = src.bands.get(1).noDataValue;
    const a = src.bands.get(1).pixels.read(0, 0, w, h, new Float64Array(w * h));
    const b = ds.bands.get(1).pixels.read(0, 0, w, h, new Float64Array(w * h));
    let checked = 0;
    for (let i = 0; i < w * h; i++) {
      if (a[i] === nodata) assert.equal(b[i], -9999);
      else {
        assert.ok(Math.abs(b[i]! - a[i]! * 2) < 1e-3);
        checked++;
      }
    }
    assert.equal(ds.bands.get(1).noDataValue, -9999);
    assert.match(r.printed, new RegExp(`^raster ${src.rasterSize.x} ${src.rasterSize.y} 1`));
    console.log(`# raster run: ${checked} data pixels checked; start-up ${r.startupMs} ms`);
    ds.close();
  });

  test('print: the first 2,000 characters come back, with the full count', async () => {
    const r = await run(`for (let i = 0; i < 100; i++) print('x'.repeat(99)); console.log({ a: 1 });`);
    assert.equal(r.printed.length, 2000);
    assert.equal(r.printedChars, 100 * 100 + '{ a: 1 }\n'.length);
    assert.deepEqual(r.outputs, []);
  });

  test('feature loops nest, break early and filter with where', async () => {
    const r = await run(`
      const nc = await layers.open('nc');
      let pairs = 0;
      for await (const a of nc.features({ limit: 3 })) {
        for await (const b of nc.features({ where: "NAME = 'Ashe' OR NAME LIKE 'Sur%'" })) pairs++;
      }
      let seen = 0;
      for (let i = 0; i < 40; i++) for await (const f of nc.features()) { seen++; break; }
      print(pairs, seen);
    `);
    assert.equal(r.printed, '6 40\n');
  });

  test('layers.list names the project layers; geo.transform and intersects work', async () => {
    const r = await run(`
      print(JSON.stringify(await layers.list()));
      const p = await geo.transform({ type: 'Point', coordinates: [-79, 35] }, 4326, 3857);
      print(Math.round(p.coordinates[0] / 1000), await geo.intersects({ type: 'Point', coordinates: [0.5, 0.5] }, { type: 'Polygon', coordinates: [[[0,0],[1,0],[1,1],[0,1],[0,0]]] }));
    `);
    assert.equal(r.printed, '[{"name":"nc","kind":"vector"},{"name":"elev","kind":"raster"}]\n-8794 true\n');
  });
});

describe('code.run_js runner: error shapes', { skip: skipReason }, () => {
  test('a syntax error comes back with its line and column', async () => {
    const e = await failure(`const a = 1;\nconst b = (a + ;\nprint(b);`);
    assert.equal(e.error.kind, 'syntax_error');
    assert.equal(e.error.line, 2);
    assert.equal(e.error.column, 16);
    assert.match(e.error.message, /SyntaxError: Unexpected token/);
    assert.equal(e.code, 'handler_error');
    assert.match(e.message, /^syntax_error at line 2, column 16: SyntaxError/);
  });

  test('an exception: its message and the stack lines inside the snippet, and what was printed before', async () => {
    const e = await failure(
      `print('before');\nfunction inner(x) {\n  return x.missing.deeper;\n}\nfunction outer() { return inner({}); }\nouter();`,
    );
    assert.equal(e.error.kind, 'exception');
    assert.match(e.error.message, /^TypeError: Cannot read properties of undefined \(reading 'deeper'\)/);
    assert.equal(e.error.line, 3);
    assert.equal(e.error.column, 20);
    assert.deepEqual(e.error.stack, ['at inner (line 3, column 20)', 'at outer (line 5, column 27)', 'at (line 6, column 1)']);
    assert.equal(e.printed, 'before\n');
    assert.doesNotMatch(e.message, /snippetHost|code-host\.mjs|node:internal/);
  });

  test('an API misuse is an exception naming what exists', async () => {
    const e = await failure(`await layers.open('roads');`);
    assert.equal(e.error.kind, 'exception');
    assert.match(e.error.message, /no layer named "roads" \(the project has: nc, elev\)/);
    assert.equal(e.error.line, 1);
  });

  test('a failed run removes the outputs it had begun', async () => {
    const e = await failure(
      `const o = await output('half', 'gpkg', { geometryType: 'Point' });\nawait o.addFeatures([{ geometry: { type: 'Point', coordinates: [0, 0] } }]);\nthrow new Error('changed my mind');`,
    );
    assert.match(e.error.message, /^Error: changed my mind/);
  });

  test('time-out: an endless loop is killed at the wall-time budget', async () => {
    const t0 = Date.now();
    const e = await failure(`const o = await output('partial', 'gpkg', {});\nwhile (true) {}`, { timeoutMs: 1500 });
    const took = Date.now() - t0;
    assert.equal(e.error.kind, 'timeout');
    assert.equal(e.code, 'timeout');
    assert.match(e.message, /longer than 2 s|longer than 1 s/);
    assert.ok(took < 1500 + 1500, `ended in ${took} ms`);
  });

  test('Stop during an endless loop ends it within a second; the partial output is removed', async () => {
    const controller = new AbortController();
    const before = runFolders().length;
    let stoppedAt = 0;
    const printed = new Promise<void>((resolve) => {
      void run(`print('looping');\nconst o = await output('partial', 'tif', { width: 4, height: 4 });\nprint('made');\nfor (;;) {}`, {
        signal: controller.signal,
        onPrint: (t) => {
          if (t.includes('made')) resolve();
        },
      }).catch((err: unknown) => {
        stopLatency = Date.now() - stoppedAt;
        stopError = err as CodeRunFailure;
      });
    });
    let stopLatency = -1;
    let stopError: CodeRunFailure | null = null;
    await printed;
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(runFolders().length, before + 1, 'the run folder exists while it runs');
    stoppedAt = Date.now();
    controller.abort();
    while (!stopError) await new Promise((r) => setTimeout(r, 5));
    const err = stopError as CodeRunFailure;
    assert.equal(err.error.kind, 'cancelled');
    assert.equal(err.code, 'cancelled');
    assert.ok(stopLatency < 1000, `stopped in ${stopLatency} ms`);
    assert.equal(runFolders().length, before, 'and is gone after Stop');
    console.log(`# Stop latency: ${stopLatency} ms`);
  });

  test('memory: a heap that grows past the budget is a memory_limit error', async () => {
    const e = await failure(`const keep = [];\nfor (;;) keep.push(new Array(1e6).fill(1.5));`, { memoryMb: 128 });
    assert.equal(e.error.kind, 'memory_limit');
    assert.match(e.error.message, /more than its 128 MB/);
  });

  test('memory: allocating 10 GB at once is refused with a memory_limit error', async () => {
    const e = await failure(`const big = new Uint8Array(10 * 1024 ** 3);\nbig.fill(1);\nprint(big.length);`, { memoryMb: 128 });
    assert.equal(e.error.kind, 'memory_limit');
    assert.match(e.error.message, /RangeError/);
    assert.equal(e.error.line, 1);
  });
});

describe('code.run_js runner: hostile snippets are contained', { skip: skipReason }, () => {
  test('no require, import, process or eval in the snippet', async () => {
    const cases: [string, RegExp][] = [
      [`require('fs').writeFileSync('/tmp/x', 'x')`, /ReferenceError: require is not defined/],
      [`process.exit(3)`, /ReferenceError: process is not defined/],
      [`await import('node:fs')`, /import|dynamic/i],
      [`print.constructor('return process')()`, /EvalError: Code generation from strings disallowed/],
      [`eval('1 + 1')`, /EvalError: Code generation from strings disallowed/],
      [`fetch('http://example.com')`, /ReferenceError: fetch is not defined/],
    ];
    for (const [code, message] of cases) {
      const e = await failure(code);
      assert.equal(e.error.kind, 'exception', code);
      assert.match(e.error.message, message, code);
    }
  });

  // The rest reach the host realm's `process` on purpose (a test switch turns code generation
  // back on), to show that the real boundaries hold for code that escapes the vm context.
  const escaped = { allowStringCodeGeneration: true };
  const reach = `const proc = print.constructor('return process')();\nconst mod = (n) => proc.getBuiltinModule(n);\n`;

  test('writing outside the outputs folder is denied', async () => {
    const target = join(kit.elsewhere, 'pwned.txt');
    const e = await failure(`${reach}mod('fs').writeFileSync(${JSON.stringify(target)}, 'x');`, escaped);
    assert.equal(e.error.kind, 'exception');
    assert.match(e.error.message, /ERR_ACCESS_DENIED|Access to this API has been restricted/);
    assert.equal(e.error.line, 3);
    assert.ok(!existsSync(target));
    // The permission model alone holds it too (no sandbox).
    const e2 = await failure(`${reach}mod('fs').writeFileSync(${JSON.stringify(target)}, 'x');`, { ...escaped, sandbox: 'off' });
    assert.match(e2.error.message, /ERR_ACCESS_DENIED|Access to this API has been restricted/);
    assert.ok(!existsSync(target));
    // An output name cannot leave the run's folder either.
    const e3 = await failure(`await output('../../escape', 'gpkg', {});`);
    assert.match(e3.error.message, /output name "..\/..\/escape" must be/);
  });

  test("reading the app's data folder is denied", async () => {
    const e = await failure(`${reach}print(mod('fs').readFileSync(${JSON.stringify(kit.secret)}, 'utf8'));`, escaped);
    assert.match(e.error.message, /ERR_ACCESS_DENIED|Access to this API has been restricted/);
    assert.doesNotMatch(e.printed + e.message, /sk-secret/);
    // Through GDAL: only layers by name, never a path.
    const e2 = await failure(`await layers.open(${JSON.stringify(kit.secret)});`);
    assert.match(e2.error.message, /no layer named/);
    // Nor through a where filter (SQLite's file functions) or an SRS read from a file.
    const e3 = await failure(
      `const nc = await layers.open('nc');\nfor await (const f of nc.features({ where: "BlobFromFile('${kit.secret}') IS NOT NULL" })) print(f);`,
    );
    assert.match(e3.error.message, /bad where filter .*BlobFromFile/i);
    assert.equal(e3.error.line, 2);
    const e4 = await failure(`await geo.transform({ type: 'Point', coordinates: [0, 0] }, ${JSON.stringify(kit.secret)}, 4326);`);
    assert.match(e4.error.message, /unknown spatial reference/);
    assert.doesNotMatch(e4.message, /sk-secret/);
    assert.equal(readFileSync(kit.secret, 'utf8'), '{"apiKey":"sk-secret"}');
  });

  test('spawning a process is denied', async () => {
    const e = await failure(`${reach}mod('child_process').execSync('id');`, escaped);
    assert.match(e.error.message, /ERR_ACCESS_DENIED|Access to this API has been restricted/);
    const e2 = await failure(`${reach}new (mod('worker_threads').Worker)('1', { eval: true });`, escaped);
    assert.match(e2.error.message, /ERR_ACCESS_DENIED|Access to this API has been restricted/);
  });

  test('opening a socket fails: no network in the sandbox', { skip: !sandboxed && 'bubblewrap is not available here' }, async () => {
    let connections = 0;
    const server = createServer((s) => {
      connections++;
      s.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const e = await failure(
        `${reach}await new Promise((ok, fail) => { const s = mod('net').connect(${port}, '127.0.0.1'); s.on('connect', () => ok('connected')); s.on('error', fail); });`,
        escaped,
      );
      assert.match(e.error.message, /ECONNREFUSED|ENETUNREACH|EACCES/);
      assert.equal(connections, 0);
    } finally {
      server.close();
    }
  });
});
