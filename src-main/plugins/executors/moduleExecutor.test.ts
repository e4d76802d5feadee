import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildPluginHost } from '../plugin-host/buildPluginHost.js';
import { sandboxSupport } from './bwrapSandbox.js';
import { ModuleHost, permissionFlagFor, type ModuleHandles, type ModuleHostOptions } from './moduleExecutor.js';
import { toolFailureOf } from './testing/toolFailure.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const FIXTURE = join(HERE, 'testing', 'module-fixture');

let tmp: string;
let hostEntry: string;
let outputsDir: string;
let secret: string;
const fetched: { url: string; init: unknown }[] = [];

const handles: ModuleHandles = {
  project: {
    layers: async () => [
      { name: 'roads', kind: 'vector', source: '/data/roads.gpkg', geometryType: 'LineString', featureCount: 3 },
      { name: 'dem', kind: 'raster', source: '/data/dem.tif' },
    ],
  },
  net: {
    fetch: async (url, init) => {
      fetched.push({ url, init });
      return { status: 200, headers: { 'content-type': 'text/plain' }, text: `main fetched ${url}` };
    },
  },
};

function options(over: Partial<ModuleHostOptions> = {}): ModuleHostOptions {
  return {
    pluginDir: FIXTURE,
    entry: 'index.mjs',
    requires: ['project'],
    handles,
    outputsDir,
    hostEntry,
    sandbox: 'auto',
    hidePaths: [secret],
    timeoutMs: 10_000,
    ...over,
  };
}

let callCount = 0;
function callOpts(
  over: { signal?: AbortSignal; timeoutMs?: number; progress?: (f: number, m: string) => void; log?: (t: string) => void } = {},
) {
  return { signal: over.signal ?? new AbortController().signal, workDir: join(outputsDir, `call-${++callCount}`), ...over };
}

before(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'mapwright-module-test-')));
  hostEntry = await buildPluginHost(join(tmp, 'host', 'plugin-host.mjs'));
  outputsDir = join(tmp, 'outputs');
  mkdirSync(outputsDir);
  secret = join(tmp, 'secret.txt');
  writeFileSync(secret, 'api key');
});

after(() => rmSync(tmp, { recursive: true, force: true }));

describe('ModuleHost', () => {
  let host: ModuleHost;
  before(async () => {
    host = await ModuleHost.start(options());
    // For the report: which layers hold on this machine.
    console.log('isolation:', JSON.stringify(host.isolation));
  });
  after(() => host.close());

  test('loads the module and lists its tools', () => {
    assert.ok(host.tools.includes('echo'));
    assert.ok(host.tools.includes('malformed'));
  });

  test('a call returns the result, reports progress and log lines; only required handles are present', async () => {
    const progress: [number, string][] = [];
    const logs: string[] = [];
    const out = await host.call('echo', { a: 1 }, callOpts({ progress: (f, m) => progress.push([f, m]), log: (t) => logs.push(t) }));
    assert.deepEqual(out, { result: { args: { a: 1 }, handles: { project: true, net: false } }, files: [] });
    assert.deepEqual(progress, [[0.5, 'half way']]);
    assert.deepEqual(logs, ['echoing']);
  });

  test('the project handle is answered by main', async () => {
    const out = await host.call('layers', {}, callOpts());
    assert.deepEqual(out.result, ['roads', 'dem']);
  });

  test('a handle the manifest does not require is undefined in the context', async () => {
    const err = await toolFailureOf(host.call('fetch', { url: 'https://example.org/' }, callOpts()));
    assert.equal(err.code, 'handler_error');
    assert.match(err.message, /TypeError/);
    assert.equal(fetched.length, 0);
  });

  test('a thrown error comes back with its message and the stack lines inside the plugin only', async () => {
    const err = await toolFailureOf(host.call('throws', {}, callOpts()));
    assert.equal(err.code, 'handler_error');
    assert.match(err.message, /the fixture failed on purpose/);
    assert.match(err.message, /index\.mjs:\d+/);
    assert.doesNotMatch(err.message, /plugin-host\.mjs/);
  });

  test('files: a file written in the working folder is returned; one outside is refused', async () => {
    const opts = callOpts();
    const out = await host.call('write', {}, opts);
    assert.deepEqual(out.files, [join(realpathSync(opts.workDir), 'out.txt')]);
    for (const files of [['../secret.txt'], [secret], ['/etc/passwd']]) {
      const err = await toolFailureOf(host.call('write', { files }, callOpts()));
      assert.equal(err.code, 'not_allowed', err.message);
    }
    const missing = await toolFailureOf(host.call('write', { files: ['nope.gpkg'] }, callOpts()));
    assert.match(missing.message, /does not exist/);
  });

  test('a folder readable twice over (the outputs among the read paths, as the app gives them) still starts', async () => {
    const twice = await ModuleHost.start(options({ readPaths: [outputsDir, FIXTURE, outputsDir] }));
    try {
      assert.deepEqual((await twice.call('echo', {}, callOpts())).files, []);
    } finally {
      twice.close();
    }
  });

  test('a working folder outside the outputs folder is refused', async () => {
    const err = await toolFailureOf(host.call('echo', {}, { signal: new AbortController().signal, workDir: join(tmp, 'elsewhere') }));
    assert.equal(err.code, 'not_allowed');
  });

  test('reading /etc/passwd or a file outside its folder fails; its own folder reads', async () => {
    const own = await host.call('read', { path: join(FIXTURE, 'index.mjs') }, callOpts());
    assert.equal((own.result as { ok: boolean }).ok, true);
    for (const path of ['/etc/passwd', secret]) {
      const out = (await host.call('read', { path }, callOpts())).result as { ok: boolean; code: string };
      assert.equal(out.ok, false, `${path} was readable`);
    }
  });

  test('child processes are refused (permission model: ERR_ACCESS_DENIED)', async () => {
    const out = (await host.call('spawn', {}, callOpts())).result as { ok: boolean; code: string | null };
    assert.equal(out.ok, false);
    if (host.isolation.permissionFlag) assert.equal(out.code, 'ERR_ACCESS_DENIED');
  });

  test('Stop ends a call that listens to its signal at once', async () => {
    const ac = new AbortController();
    const started = Date.now();
    const p = host.call('slow', { ms: 10_000 }, callOpts({ signal: ac.signal }));
    setTimeout(() => ac.abort(), 100);
    const err = await toolFailureOf(p);
    assert.equal(err.code, 'cancelled');
    assert.ok(Date.now() - started < 1000);
  });

  test('Stop kills a call that ignores it within about a second; the next call restarts the host', async () => {
    const ac = new AbortController();
    const p = host.call('spin', {}, callOpts({ signal: ac.signal }));
    await new Promise((r) => setTimeout(r, 200));
    const stopped = Date.now();
    ac.abort();
    const err = await toolFailureOf(p);
    assert.equal(err.code, 'cancelled');
    assert.ok(Date.now() - stopped < 1500, `took ${Date.now() - stopped} ms`);
    const again = await host.call('echo', { b: 2 }, callOpts());
    assert.deepEqual((again.result as { args: unknown }).args, { b: 2 });
  });

  test('the time limit ends a call with timeout', async () => {
    const err = await toolFailureOf(host.call('slow', { ms: 10_000, ignore_signal: true }, callOpts({ timeoutMs: 300 })));
    assert.equal(err.code, 'timeout');
  });

  test('a crash fails the call with the stderr tail; the next call restarts the host', async () => {
    const err = await toolFailureOf(host.call('crash', {}, callOpts()));
    assert.equal(err.code, 'handler_error');
    assert.match(err.message, /exit code 3/);
    assert.match(err.message, /about to crash/);
    const again = await host.call('layers', {}, callOpts());
    assert.deepEqual(again.result, ['roads', 'dem']);
  });

  test('a malformed message from the host kills it with a clear error', async () => {
    const err = await toolFailureOf(host.call('malformed', {}, callOpts()));
    assert.equal(err.code, 'handler_error');
    assert.match(err.message, /malformed message \(not JSON: "this is not a message"\)/);
    const again = await host.call('echo', {}, callOpts());
    assert.equal((again.result as { handles: { project: boolean } }).handles.project, true);
  });
});

describe('ModuleHost with the net handle', () => {
  let host: ModuleHost;
  let server: Server;
  let serverUrl: string;
  before(async () => {
    host = await ModuleHost.start(options({ requires: ['net'] }));
    server = createServer((_req, res) => res.end('direct'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  });
  after(() => {
    host.close();
    server.close();
  });

  test('net.fetch goes through the function main passed in', async () => {
    fetched.length = 0;
    const out = await host.call('fetch', { url: 'https://example.org/x' }, callOpts());
    assert.deepEqual(out.result, { status: 200, text: 'main fetched https://example.org/x' });
    assert.deepEqual(fetched, [{ url: 'https://example.org/x', init: { method: 'POST', body: 'hi' } }]);
  });

  test('a call of a tool that does not declare the network cannot use net, although the plugin was given it', async () => {
    fetched.length = 0;
    await assert.rejects(
      host.call('fetch', { url: 'https://example.org/x' }, { ...callOpts(), handles: [] }),
      /may not use the 'net' handle \(it does not declare network: true\)/,
    );
    assert.deepEqual(fetched, [], 'main was never asked to fetch');
  });

  test('project is undefined when not required', async () => {
    const out = await host.call('echo', {}, callOpts());
    assert.deepEqual((out.result as { handles: unknown }).handles, { project: false, net: true });
  });

  test('direct network access: blocked under bubblewrap (the permission model alone does not block it)', async () => {
    const out = (await host.call('net_direct', { url: serverUrl }, callOpts())).result as { ok: boolean };
    console.log('direct fetch from the host:', JSON.stringify(out), 'sandboxed:', host.isolation.sandboxed);
    if (host.isolation.sandboxed) assert.equal(out.ok, false);
  });
});

describe('ModuleHost isolation fallbacks', () => {
  test('the permission model alone (no bubblewrap) still refuses /etc/passwd and child processes', async (t) => {
    if (!permissionFlagFor(process.execPath, false)) return t.skip('this Node has no permission model');
    const host = await ModuleHost.start(options({ sandbox: 'off' }));
    try {
      assert.equal(host.isolation.sandboxed, false);
      const read = (await host.call('read', { path: '/etc/passwd' }, callOpts())).result as { ok: boolean; code: string };
      assert.deepEqual([read.ok, read.code], [false, 'ERR_ACCESS_DENIED']);
      const spawned = (await host.call('spawn', {}, callOpts())).result as { ok: boolean; code: string };
      assert.deepEqual([spawned.ok, spawned.code], [false, 'ERR_ACCESS_DENIED']);
    } finally {
      host.close();
    }
  });

  test('bubblewrap alone (no permission model) hides the secret and /tmp', async (t) => {
    if (!(await sandboxSupport()).available) return t.skip('bubblewrap does not work here');
    const host = await ModuleHost.start(options({ permissions: 'off' }));
    try {
      assert.equal(host.isolation.permissionFlag, null);
      const read = (await host.call('read', { path: secret }, callOpts())).result as { ok: boolean; text?: string };
      assert.notEqual(read.text, 'api key');
    } finally {
      host.close();
    }
  });
});

describe('ModuleHost load errors', () => {
  test('a syntax error names the file and line', async () => {
    // Written here, not kept in the tree, where lint and prettier would trip over it.
    const broken = join(tmp, 'syntax-error-plugin');
    mkdirSync(broken);
    writeFileSync(
      join(broken, 'index.mjs'),
      "export default ({ defineTool }) => [\n  defineTool({ name: 'x', run() {} }),\n  const = 5;\n];\n",
    );
    const err = await toolFailureOf(ModuleHost.start(options({ pluginDir: broken })));
    assert.equal(err.code, 'handler_error');
    assert.match(err.message, /index\.mjs:3/);
    assert.match(err.message, /SyntaxError/);
  });

  test('a missing entry is a load error', async () => {
    const err = await toolFailureOf(ModuleHost.start(options({ entry: 'missing.mjs' })));
    assert.equal(err.code, 'handler_error');
    assert.match(err.message, /missing\.mjs/);
  });
});
