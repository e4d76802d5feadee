/**
 * `code.run_python` against the real Python and bubblewrap: a snippet reads a project layer and
 * writes outputs that GDAL (gdal-async, here) opens; syntax errors, exceptions, the time and
 * memory limits and the output cap come back as readable errors; a list of hostile snippets
 * is contained; Stop kills at once and removes the partial output. Skipped, with the reason,
 * where the probe finds no Python with GDAL's bindings that runs in the sandbox.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { ComposedToolDeps } from '../composition/composedTools.js';
import { gdal } from '../gis-worker/gdal.js';
import { fixture, makeTempDir, skipReason as gisSkip } from '../gis-worker/testSupport.js';
import { sandboxArgs } from '../plugins/executors/bwrapSandbox.js';
import { PrivatePaths } from '../security/privatePaths.js';
import { capText, createPythonTools, TEXT_CAP } from './pythonTools.js';
import { hardened, pythonSupport, resetPythonProbe, runPythonSnippet, type SnippetLimits } from './pythonRunner.js';

const support = pythonSupport();
const skip = gisSkip || (support.available ? false : `code.run_python is not offered here: ${support.reason}`);
if (skip) console.log(`# skipping code.run_python tests: ${skip}`);
else if (support.available) console.log(`# python ${support.python} under ${support.bwrap}; probe ${support.probeMs} ms`);

const tmp = makeTempDir('mapwright-python-');
after(() => tmp.cleanup());
let counter = 0;

interface World {
  home: string;
  outputsDir: string;
  tool: ToolDefinition;
  project: ProjectHandle;
}

/** A data folder with a settings file, the outputs folder inside it (as the app has it), one layer (nc.gpkg). */
function world(
  limits: Partial<SnippetLimits> = {},
  layers: (home: string) => Pick<Layer, 'name' | 'source' | 'sublayer' | 'kind'>[] = () => [],
): World {
  const home = join(tmp.dir, `home${++counter}`);
  const outputsDir = join(home, 'projects', 'untitled-outputs');
  mkdirSync(outputsDir, { recursive: true });
  writeFileSync(join(home, 'settings.json'), '{"apiKey":"sk-secret"}');
  const list = [{ name: 'nc', source: fixture('nc.gpkg'), sublayer: null, kind: 'vector' as const }, ...layers(home)];
  const project = {
    listLayers: () => list as Layer[],
    getLayer: (n: string) => list.find((l) => l.name === n) as Layer | undefined,
    outputPath: (base: string, ext: string) => {
      for (let n = 1; ; n++) {
        const p = join(outputsDir, `${base}${n === 1 ? '' : `_${n}`}.${ext}`);
        if (!existsSync(p)) return p;
      }
    },
  } as unknown as ProjectHandle;
  const privatePaths = PrivatePaths.forProject({ home, projectPath: join(home, 'projects', 'untitled.mapwright'), outputsDir });
  const deps = { home, outputsDir: () => outputsDir, privatePaths } as unknown as ComposedToolDeps;
  const [tool] = createPythonTools(deps, support, limits);
  assert.ok(tool);
  return { home, outputsDir, tool, project };
}

type Payload = { output: string; load_layers?: { path: string; name: string }[]; not_created?: string[] };

async function call(w: World, code: string, signal = new AbortController().signal): Promise<Payload> {
  const args = w.tool.input.parse({ code, intent: 'A test snippet.' });
  return (await w.tool.execute(args, { handles: { project: w.project } as never, caller: 'model', signal, progress: () => {} })) as Payload;
}

async function failure(w: World, code: string, signal?: AbortSignal): Promise<ToolFailure> {
  try {
    await call(w, code, signal);
  } catch (err) {
    assert.ok(err instanceof ToolFailure, `expected a ToolFailure, got ${String(err)}`);
    return err;
  }
  assert.fail('the snippet should have failed');
}

/** Nothing of a run left in the outputs folder: no run folder, no files. */
function assertOutputsEmpty(w: World): void {
  assert.deepEqual(readdirSync(w.outputsDir), []);
}

describe('code.run_python', { skip }, () => {
  test('the declaration: destructive, one-sentence intent, a python preview', async () => {
    const { tool } = world();
    assert.equal(tool.id, 'code.run_python');
    assert.equal(tool.safety, 'destructive');
    assert.equal(tool.network, false);
    assert.equal(tool.input.safeParse({ code: 'print(1)' }).success, false, 'intent is required');
    assert.equal(tool.input.safeParse({ code: 'print(1)', intent: 'two\nlines' }).success, false);
    assert.equal(tool.input.safeParse({ code: 'x'.repeat(20_001), intent: 'Too long.' }).success, false);
    const prepared = await tool.prepare!(
      { code: 'print(1)\nprint(2)', intent: ' Counts things. ' },
      { handles: {} as never, caller: 'model', signal: new AbortController().signal },
    );
    assert.equal(prepared.preview?.language, 'python');
    assert.equal(prepared.preview?.intent, 'Counts things.');
  });

  test('not offered where the probe fails; MAPWRIGHT_PLUGIN_SANDBOX=off means not offered', () => {
    assert.deepEqual(createPythonTools({} as ComposedToolDeps, { available: false, reason: 'x' }), []);
    const before = process.env.MAPWRIGHT_PLUGIN_SANDBOX;
    process.env.MAPWRIGHT_PLUGIN_SANDBOX = 'off';
    try {
      resetPythonProbe();
      const off = pythonSupport();
      assert.equal(off.available, false);
      assert.match((off as { reason: string }).reason, /MAPWRIGHT_PLUGIN_SANDBOX=off/);
    } finally {
      if (before === undefined) delete process.env.MAPWRIGHT_PLUGIN_SANDBOX;
      else process.env.MAPWRIGHT_PLUGIN_SANDBOX = before;
      resetPythonProbe();
    }
    assert.equal(pythonSupport().available, true);
  });

  test('reads a project layer and writes a buffered GeoPackage that is loaded after', async () => {
    const w = world();
    const t0 = performance.now();
    const payload = await call(
      w,
      `src = layers.feature_layer('nc')
print('features', src.GetFeatureCount())
path = output('nc_buffered', 'vector')
ds = gdal.GetDriverByName('GPKG').Create(path, 0, 0, 0, gdal.GDT_Unknown)
out = ds.CreateLayer('nc_buffered', src.GetSpatialRef(), ogr.wkbMultiPolygon)
out.CreateField(ogr.FieldDefn('NAME', ogr.OFTString))
for f in src:
    g = ogr.Feature(out.GetLayerDefn())
    g.SetField('NAME', f.GetField('NAME'))
    g.SetGeometry(ogr.ForceToMultiPolygon(f.GetGeometryRef().Buffer(0.01)))
    out.CreateFeature(g)
# no ds = None: the runner closes what the snippet left open
`,
    );
    console.log(`# a real run (open, buffer 100 features, write): ${Math.round(performance.now() - t0)} ms`);
    assert.equal(payload.output, 'features 100\n');
    assert.equal(payload.load_layers?.length, 1);
    const produced = payload.load_layers![0]!;
    assert.equal(produced.path, join(w.outputsDir, 'nc_buffered.gpkg'));
    assert.deepEqual(readdirSync(w.outputsDir), ['nc_buffered.gpkg'], 'the run folder is gone, the output moved out');
    const ds = gdal.open(produced.path);
    try {
      const layer = ds.layers.get(0);
      assert.equal(layer.name, 'nc_buffered');
      assert.equal(layer.features.count(), 100);
      const geometry = layer.features.get(1).getGeometry() as unknown as { getArea(): number } | null;
      assert.ok(geometry && geometry.getArea() > 0);
    } finally {
      ds.close();
    }
  });

  test('writes a GeoTIFF; a second output of the same name gets a fresh file', async () => {
    const w = world();
    writeFileSync(join(w.outputsDir, 'ramp.tif'), 'an earlier output');
    const payload = await call(
      w,
      `ds = gdal.GetDriverByName('GTiff').Create(output('ramp', 'raster'), 8, 4, 1, gdal.GDT_Byte)
ds.SetGeoTransform([0, 1, 0, 4, 0, -1])
band = ds.GetRasterBand(1)
band.WriteRaster(0, 0, 8, 4, bytes(range(32)))
ds = None
output('never_written', 'vector')
`,
    );
    assert.equal(payload.load_layers?.[0]?.path, join(w.outputsDir, 'ramp_2.tif'));
    assert.deepEqual(payload.not_created, ['never_written']);
    const ds = gdal.open(payload.load_layers![0]!.path);
    try {
      assert.equal(ds.rasterSize.x, 8);
      assert.equal(ds.rasterSize.y, 4);
      assert.equal(ds.bands.get(1).pixels.get(7, 3), 31);
    } finally {
      ds.close();
    }
  });

  test('a syntax error names its line and column', async () => {
    const w = world();
    const err = await failure(w, 'x = 1\nif x = 2:\n    pass\n');
    assert.equal(err.code, 'invalid_params');
    assert.match(err.message, /syntax error at line 2, column \d+/);
    assert.match(err.message, /if x = 2:/);
    assertOutputsEmpty(w);
  });

  test("an exception comes back with the snippet's own traceback lines only", async () => {
    const w = world();
    const err = await failure(w, "print('before')\ndef ratio(a, b):\n    return a / b\n\nratio(1, 0)\n");
    assert.equal(err.code, 'handler_error');
    assert.match(err.message, /ZeroDivisionError: division by zero/);
    assert.match(err.message, /line 5: ratio\(1, 0\)/);
    assert.match(err.message, /line 3, in ratio: return a \/ b/);
    assert.match(err.message, /before/);
    assert.doesNotMatch(err.message, /run_snippet|<string>|osgeo/);
    // A GDAL error is an exception too, at the snippet's line.
    const gdalErr = await failure(w, "\nds = gdal.OpenEx('/nonexistent/x.gpkg')\n");
    assert.match(gdalErr.message, /RuntimeError: .*nonexistent/);
    assert.match(gdalErr.message, /line 2: ds = gdal.OpenEx/);
  });

  test('the output text is capped, the rest summarised by its length', async () => {
    const w = world();
    const payload = await call(w, "print('x' * 5000)\nimport sys\nsys.stdout.write('y' * 1000)\n");
    assert.ok(payload.output.startsWith('x'.repeat(TEXT_CAP)));
    assert.match(payload.output, /4001 more characters not shown; 6001 in all/);
    assert.equal(capText('short', 5), 'short');
  });

  test('an endless loop is stopped at the time limit and its partial output removed', async () => {
    const w = world({ wallMs: 1500 });
    const t0 = performance.now();
    const err = await failure(w, "open(output('partial', 'vector'), 'w').write('x')\nwhile True:\n    pass\n");
    const took = performance.now() - t0;
    assert.equal(err.code, 'timeout');
    assert.match(err.message, /longer than 2 s|longer than 1 s/);
    assert.ok(took < 3500, `stopped after ${Math.round(took)} ms`);
    assertOutputsEmpty(w);
  });

  test('allocating 10 GB hits the memory limit', async () => {
    const w = world({ memoryMb: 512 });
    const err = await failure(w, 'data = bytearray(10 * 1024**3)\n');
    assert.match(err.message, /memory limit: the snippet needed more than its 512 MB/);
    assert.match(err.message, /line 1: data = bytearray/);
    // Many small allocations too, not just one huge one.
    const err2 = await failure(w, 'chunks = []\nwhile True:\n    chunks.append(bytearray(50 * 1024**2))\n');
    assert.match(err2.message, /memory limit/);
  });

  test('Stop kills it at once and removes the partial output', async () => {
    const w = world();
    const ac = new AbortController();
    const pending = failure(
      w,
      "p = output('partial', 'raster')\nds = gdal.GetDriverByName('GTiff').Create(p, 64, 64, 1)\nds.FlushCache()\nwhile True:\n    pass\n",
      ac.signal,
    );
    // Wait until the snippet has written something.
    const deadline = Date.now() + 10_000;
    const written = () =>
      readdirSync(w.outputsDir).some((d) => d.startsWith('python-run-') && readdirSync(join(w.outputsDir, d)).length > 0);
    while (!written() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(written(), 'the partial output appeared');
    const t0 = performance.now();
    ac.abort();
    const err = await pending;
    const took = performance.now() - t0;
    assert.equal(err.code, 'cancelled');
    assert.ok(took < 1000, `stopped in ${Math.round(took)} ms`);
    assertOutputsEmpty(w);
  });

  describe('hostile snippets are contained', () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    before(async () => {
      server = createServer((s) => {
        connections++;
        s.end('hello');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as { port: number }).port;
    });
    after(() => server.close());

    test('writing outside the outputs folder', async () => {
      const w = world();
      const err = await failure(w, "open('/usr/evil.txt', 'w').write('x')\n");
      assert.match(err.message, /Read-only file system/);
      const besideOutputs = join(w.home, 'projects', 'evil.txt');
      const err2 = await failure(w, `open(${JSON.stringify(besideOutputs)}, 'w').write('x')\n`);
      assert.match(err2.message, /Permission denied/, 'the hidden data folder is an empty, read-only tmpfs');
      assert.equal(existsSync(besideOutputs), false);
      // The outputs folder itself is read-only (earlier outputs cannot be overwritten); only the run's folder is writable.
      const earlier = join(w.outputsDir, 'earlier.gpkg');
      writeFileSync(earlier, 'kept');
      const err3 = await failure(w, `open(${JSON.stringify(earlier)}, 'w').write('x')\n`);
      assert.match(err3.message, /Read-only file system/);
      // /tmp is the sandbox's own empty tmpfs, read-only too.
      const err4 = await failure(w, "open('/tmp/escaped.txt', 'w').write('x')\n");
      assert.match(err4.message, /Permission denied/);
      assert.equal(existsSync('/tmp/escaped.txt'), false);
    });

    test('a layer in a folder that holds the data folder: its own files are shown, not its neighbours', async () => {
      const shared = tmp.dir; // every test's data folder is in it
      const w = world({}, (home) => {
        copyFileSync(fixture('nc.gpkg'), join(shared, 'roads.gpkg'));
        writeFileSync(join(shared, 'secret.txt'), 'sk-secret');
        return [
          { name: 'roads', source: join(shared, 'roads.gpkg'), sublayer: null, kind: 'vector' },
          { name: 'inside', source: join(home, 'settings.json'), sublayer: null, kind: 'vector' },
        ];
      });
      const ok = await call(w, "print(layers.feature_layer('roads').GetFeatureCount())\n");
      assert.equal(ok.output, '100\n');
      const err = await failure(w, `print(open(${JSON.stringify(join(shared, 'secret.txt'))}).read())\n`);
      assert.match(err.message, /No such file/);
      // A "layer" naming one of the app's own files is still hidden.
      const err2 = await failure(w, "layers['inside']\n");
      assert.match(err2.message, /No such file/);
      assert.doesNotMatch(err2.message, /sk-secret/);
    });

    test("reading the app's data folder (settings, keys)", async () => {
      const w = world();
      const err = await failure(w, `print(open(${JSON.stringify(join(w.home, 'settings.json'))}).read())\n`);
      assert.match(err.message, /FileNotFoundError|No such file/);
      assert.doesNotMatch(err.message, /sk-secret/);
      const listing = await call(w, `import os\nprint(sorted(os.listdir(${JSON.stringify(w.home)})))\n`);
      assert.doesNotMatch(listing.output, /settings/);
    });

    test('opening a socket to a loopback server', async () => {
      const w = world();
      const err = await failure(w, `import socket\ns = socket.create_connection(('127.0.0.1', ${port}), timeout=2)\nprint(s.recv(10))\n`);
      assert.equal(err.code, 'not_allowed');
      assert.match(err.message, /opening a socket is not allowed/);
      assert.equal(connections, 0);
    });

    test('starting a process', async () => {
      const w = world();
      const err = await failure(w, "import subprocess\nprint(subprocess.run(['/bin/echo', 'hi'], capture_output=True).stdout)\n");
      assert.equal(err.code, 'not_allowed');
      assert.match(err.message, /starting a process is not allowed/);
      const err2 = await failure(w, "import os\nos.system('echo hi')\n");
      assert.match(err2.message, /starting a process is not allowed/);
      const err3 = await failure(w, 'import ctypes\nctypes.CDLL(None).fork()\n');
      assert.match(err3.message, /ctypes is not allowed/);
    });

    test("without the runner's audit hook, the sandbox alone: no network, read-only, processes allowed but inside", () => {
      // The audit hook is a courtesy (clear errors); bubblewrap is the boundary. Show what it holds by itself.
      const s = support as Extract<typeof support, { available: true }>;
      const w = world();
      const work = join(w.outputsDir, 'raw');
      mkdirSync(work);
      const code = `
import socket, subprocess, os
try:
    socket.create_connection(('127.0.0.1', ${port}), timeout=2); print('net: connected')
except OSError as e: print('net:', type(e).__name__)
print('proc:', subprocess.run(['/bin/sh', '-c', 'echo spawned'], capture_output=True, text=True).stdout.strip())
try:
    open('/usr/evil', 'w'); print('write: ok')
except OSError as e: print('write:', e.strerror)
print('home:', os.path.exists(${JSON.stringify(join(w.home, 'settings.json'))}))
try:
    open('/tmp/x', 'w'); print('tmp: ok')
except OSError as e: print('tmp:', e.strerror)
print('caps:', [l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')][0])
`;
      const r = spawnSync(
        s.bwrap,
        hardened(sandboxArgs({ workDir: work, hidePaths: [w.home], readPaths: [] }, s.python, ['-I', '-c', code]), 3),
        {
          encoding: 'utf8',
          timeout: 10_000,
        },
      );
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /net: (ConnectionRefusedError|OSError)/, 'no network namespace route to the host loopback');
      assert.match(r.stdout, /proc: spawned/, 'bubblewrap lets a process start (inside the same sandbox)');
      assert.match(r.stdout, /write: Read-only file system/);
      assert.match(r.stdout, /home: False/);
      assert.match(r.stdout, /tmp: Permission denied/);
      assert.match(r.stdout, /caps: 0000000000000000/, 'no capabilities, even when started by root');
      assert.equal(connections, 0);
    });
  });

  test('hardened(): no capabilities, read-only tiny tmpfs, read-only folders on the way to a bound path', () => {
    const args = hardened(
      [
        '--ro-bind',
        '/',
        '/',
        '--tmpfs',
        '/tmp',
        '--unshare-all',
        '--tmpfs',
        '/tmp/a/home',
        '--ro-bind',
        '/x',
        '/tmp/a/home/p/o',
        '--bind',
        '/w',
        '/tmp/a/home/p/o/run',
        '--chdir',
        '/w',
        '--',
        '/usr/bin/python3',
        '-c',
        'x',
      ],
      2,
    );
    // prettier-ignore
    assert.deepEqual(args, [
      '--ro-bind', '/', '/',
      '--perms', '0555', '--size', String(1 << 20), '--tmpfs', '/tmp',
      '--unshare-all',
      '--perms', '0555', '--dir', '/tmp/a',
      '--perms', '0555', '--size', String(1 << 20), '--tmpfs', '/tmp/a/home',
      '--perms', '0555', '--dir', '/tmp/a/home/p',
      '--ro-bind', '/x', '/tmp/a/home/p/o',
      '--bind', '/w', '/tmp/a/home/p/o/run',
      '--chdir', '/w',
      '--cap-drop', 'ALL', '--', '/usr/bin/python3', '-c', 'x',
    ]);
    assert.throws(() => hardened(['--ro-bind', '/', '/', '--', 'p'], 1));
  });

  test('a run starts in a fraction of a second', async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await runPythonSnippet({
        code: 'print(1)',
        layers: [],
        outputsDir: join(tmp.dir, 'startup'),
        hidePaths: [],
        signal: new AbortController().signal,
      });
      assert.equal(r.ok, true);
      times.push(r.durationMs);
      if (r.ok) (await import('node:fs')).rmSync(r.runDir, { recursive: true, force: true });
    }
    console.log(`# start-up of a run (print(1)): ${times.join(', ')} ms`);
    assert.ok(Math.min(...times) < 2000);
  });
});
