/**
 * The `command` executor against real programs: argv entries arrive whole and literal, the
 * environment is scrubbed, the time limit and Stop kill the whole process group, the output
 * cap holds, programs stay inside the plugin folder; under bubblewrap (where it works) the
 * file system is read-only except the run's folder and there is no network, and a real
 * `gdal_translate` writes its output there.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import { fixture, isRunning, makeTempDir, skipReason as gdalSkipReason } from '../../gis-worker/testSupport.js';
import { ArgvTemplateError, expandArgv, templateParams, validateArgvTemplate } from './argvTemplate.js';
import { sandboxSupport } from './bwrapSandbox.js';
import {
  commandFailure,
  runCommand,
  validateCommandSpec,
  type CommandContext,
  type CommandResult,
  type CommandSpec,
} from './commandExecutor.js';

const tmp = makeTempDir('mapwright-cmdexec-');
after(() => tmp.cleanup());
let counter = 0;

/** A fresh outputs folder and plugin folder for one test. */
function dirs(): { outputsDir: string; pluginDir: string } {
  const base = join(tmp.dir, `t${++counter}`);
  const outputsDir = join(base, 'outputs');
  const pluginDir = join(base, 'plugin');
  mkdirSync(outputsDir, { recursive: true });
  mkdirSync(pluginDir, { recursive: true });
  return { outputsDir, pluginDir };
}

function ctxFor(outputsDir: string, over: Partial<CommandContext> = {}): CommandContext {
  return { outputsDir, signal: new AbortController().signal, timeoutMs: 10_000, outputCapBytes: 1 << 20, sandbox: 'off', ...over };
}

async function run(
  program: string,
  argv: string[],
  args: Record<string, unknown> = {},
  over: Partial<CommandContext> & { outputs?: string[] } = {},
): Promise<CommandResult & { outputsDir: string }> {
  const { outputsDir, pluginDir } = dirs();
  const { outputs, ...ctx } = over;
  const spec: CommandSpec = { program, argv, pluginDir, ...(outputs ? { outputs } : {}) };
  const result = await runCommand(spec, args, ctxFor(outputsDir, ctx));
  return { ...result, outputsDir };
}

/** Lines of `printf '<%s>\n' …`: one per argv entry. */
const PRINT_ARGS = ['<%s>\\n'];

async function refusal(p: Promise<unknown>, code: string, pattern: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ToolFailure, `expected a ToolFailure, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.match(err.message, pattern);
    return true;
  });
}

/** Live (not zombie) processes whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(marker) && isRunning(Number(name))) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await sleep(25);
  }
  return check();
}

describe('argv template', () => {
  test('placeholders, literal text and {{ }} escapes; one entry per element', () => {
    assert.deepEqual(expandArgv(['-of', 'GTiff', '{in}', 'out_{name}.tif', '{{x}}', 'A={a}{b}'], { in: 'a b', name: 'n', a: 1, b: true }), [
      '-of',
      'GTiff',
      'a b',
      'out_n.tif',
      '{x}',
      'A=1true',
    ]);
    assert.deepEqual(templateParams(['{a}', 'x{b}y', '{a}']), ['a', 'b']);
  });

  test('malformed templates and unknown placeholders are refused, naming the element', () => {
    assert.throws(() => expandArgv(['{a'], { a: 1 }), /argv\[0\] '\{a' has a malformed placeholder/);
    assert.throws(() => expandArgv(['x', 'a}'], {}), /argv\[1\] 'a\}' has an unmatched '\}'/);
    assert.throws(() => expandArgv(['{not valid}'], {}), /malformed placeholder/);
    assert.throws(() => expandArgv(['{input}'], { other: 1 }), /unknown placeholder \{input\}: the call has no argument 'input'/);
    assert.throws(() => validateArgvTemplate(['{a}', '--z={zz}'], ['a', 'b']), /unknown placeholder \{zz\}; declared parameters: a, b/);
    validateArgvTemplate(['{a}', '{b}'], ['a', 'b']);
  });

  test('non-scalar, missing and NUL values are refused', () => {
    assert.throws(() => expandArgv(['{a}'], { a: ['x', 'y'] }), /'a' must be a string, number or boolean, not an array/);
    assert.throws(() => expandArgv(['{a}'], { a: { x: 1 } }), /not object/);
    assert.throws(() => expandArgv(['{a}'], { a: null }), /argument 'a' is missing/);
    assert.throws(() => expandArgv(['{a}'], { a: Number.NaN }), /not a finite number/);
    assert.throws(() => expandArgv(['{a}'], { a: 'x\0y' }), /NUL byte/);
    assert.throws(() => expandArgv(['x\0'], {}), /argv\[0\] contains a NUL byte/);
  });

  test('a value starting with - is refused unless it follows literal text ending in = or is a plain negative number', () => {
    const dash = /starts with '-'.*read as an option/;
    assert.throws(() => expandArgv(['{a}'], { a: '-o/etc/passwd' }), dash);
    assert.throws(() => expandArgv(['{a}'], { a: '--config' }), dash);
    assert.throws(() => expandArgv(['-{a}'], { a: '-rf' }), dash);
    assert.throws(() => expandArgv(['out_{a}'], { a: '-x' }), dash);
    assert.throws(() => expandArgv(['{a}{b}'], { a: '', b: '-x' }), dash);
    assert.throws(() => expandArgv(['{a}'], { a: '-1e+21' }), dash);
    assert.throws(() => expandArgv(['{a}'], { a: -1e21 }), dash);
    assert.throws(() => expandArgv(['{a}'], { a: '-5x' }), dash);
    assert.deepEqual(expandArgv(['--flag={a}', '-co', 'COMPRESS={b}'], { a: '-x', b: '-y' }), ['--flag=-x', '-co', 'COMPRESS=-y']);
    assert.deepEqual(expandArgv(['-a_nodata', '{a}', '{b}', '{c}'], { a: -9999, b: '-110.25', c: 'a-b' }), [
      '-a_nodata',
      '-9999',
      '-110.25',
      'a-b',
    ]);
    assert.throws(() => expandArgv(['{a}'], { a: '-' }), ArgvTemplateError);
  });
});

describe('command runs (unsandboxed)', () => {
  test('a value with spaces and quotes arrives as one argument', async () => {
    const value = `it's a "quoted"  value with spaces`;
    const echo = await run('echo', ['{v}'], { v: value });
    assert.equal(echo.ok, true);
    assert.equal(echo.stdout, `${value}\n`);
    assert.equal(echo.sandboxed, false);
    assert.equal(echo.sandboxNote, 'sandbox turned off');
    const printf = await run('printf', [...PRINT_ARGS, '{v}', 'x={w}'], { v: value, w: 'a b' });
    assert.equal(printf.stdout, `<${value}>\n<x=a b>\n`);
    assert.deepEqual(printf.command, ['/usr/bin/printf', '<%s>\\n', value, 'x=a b']);
  });

  test('shell metacharacters arrive literally and run nothing', async () => {
    const values = [
      '; rm -rf ./*',
      '$(touch pwned1)',
      '`touch pwned2`',
      '| touch pwned3',
      '&& touch pwned4',
      '> pwned5',
      '*',
      '$HOME',
      'a\nb',
    ];
    const args = Object.fromEntries(values.map((v, i) => [`v${i}`, v]));
    const r = await run('printf', [...PRINT_ARGS, ...values.map((_, i) => `{v${i}}`)], args);
    assert.equal(r.ok, true);
    assert.equal(r.stdout, values.map((v) => `<${v}>\n`).join(''));
    assert.deepEqual(readdirSync(r.workDir), [], 'nothing was created in the run folder');
  });

  test('unknown placeholder and leading dash are refused before anything runs', async () => {
    const { outputsDir, pluginDir } = dirs();
    const spec = (argv: string[]): CommandSpec => ({ program: 'echo', argv, pluginDir });
    await refusal(runCommand(spec(['{missing}']), { other: 1 }, ctxFor(outputsDir)), 'invalid_params', /unknown placeholder \{missing\}/);
    await refusal(runCommand(spec(['{v}']), { v: '--version' }, ctxFor(outputsDir)), 'invalid_params', /'v' starts with '-'/);
    await refusal(runCommand(spec(['{v}']), { v: { a: 1 } }, ctxFor(outputsDir)), 'invalid_params', /must be a string, number or boolean/);
    assert.deepEqual(readdirSync(outputsDir), [], 'no run folder was made');
    const ok = await runCommand(spec(['--flag={v}']), { v: '--version' }, ctxFor(outputsDir));
    assert.equal(ok.stdout, '--flag=--version\n');
  });

  test('the environment is scrubbed: only PATH, HOME, LANG, TMPDIR and GDAL_PAM_ENABLED', async () => {
    process.env.OPENAI_API_KEY = 'sk-fake-key-for-the-test';
    process.env.HTTPS_PROXY = 'http://proxy.invalid:3128';
    try {
      const r = await run('/usr/bin/env', []);
      assertScrubbed(r);
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.HTTPS_PROXY;
    }
  });

  test('the time limit kills the whole process group, grandchildren included', async () => {
    const started = Date.now();
    const r = await run('sh', ['-c', 'sleep 30 & echo $!; wait'], {}, { timeoutMs: 300, outputs: ['x'] });
    const elapsed = Date.now() - started;
    assert.equal(r.ended, 'timeout');
    assert.equal(r.ok, false);
    assert.equal(r.signal, 'SIGKILL');
    assert.ok(elapsed < 2500, `took ${elapsed} ms`);
    const grandchild = Number(r.stdout.trim());
    assert.ok(grandchild > 0, `grandchild pid printed: ${r.stdout}`);
    assert.ok(await eventually(() => !isRunning(grandchild)), `grandchild ${grandchild} still running`);
    assert.equal(existsSync(r.workDir), false, 'the run folder is removed');
    assert.equal(commandFailure(r)?.code, 'timeout');
  });

  test('a background process left behind after a normal exit is killed with the group', async () => {
    const r = await run('sh', ['-c', 'sleep 30 >/dev/null 2>&1 & echo $!']);
    assert.equal(r.ok, true);
    const pid = Number(r.stdout.trim());
    assert.ok(await eventually(() => !isRunning(pid)), `left-over ${pid} still running`);
  });

  test('the output cap kills the program and truncates stdout + stderr together', async () => {
    const started = Date.now();
    const r = await run('yes', ['{w}'], { w: 'spam' }, { outputCapBytes: 10_000 });
    assert.equal(r.truncated, true);
    assert.equal(r.ended, 'output_cap');
    assert.equal(r.ok, false);
    assert.equal(Buffer.byteLength(r.stdout), 10_000);
    assert.ok(Date.now() - started < 3000);
    assert.equal(commandFailure(r)?.code, 'handler_error');
    assert.match(commandFailure(r)!.message, /more output than allowed/);

    const both = await run('sh', ['-c', 'echo 12345; yes err >&2'], {}, { outputCapBytes: 1000 });
    assert.equal(both.truncated, true);
    assert.equal(both.stdout, '12345\n');
    assert.equal(Buffer.byteLength(both.stdout) + Buffer.byteLength(both.stderr), 1000);

    const small = await run('echo', ['fits'], {}, { outputCapBytes: 5 });
    assert.equal(small.truncated, false);
    assert.equal(small.ok, true);
  });

  test('Stop kills at once and removes the partial output', async () => {
    const { outputsDir, pluginDir } = dirs();
    const ac = new AbortController();
    const marker = `30.${process.pid}${Date.now() % 1000}`;
    const spec: CommandSpec = {
      program: 'sh',
      argv: ['-c', `echo partial > out.tif; exec sleep ${marker}`],
      pluginDir,
      outputs: ['out.tif'],
    };
    const p = runCommand(spec, {}, ctxFor(outputsDir, { signal: ac.signal }));
    const partial = () => readdirSync(outputsDir).some((d) => existsSync(join(outputsDir, d, 'out.tif')));
    assert.ok(await eventually(partial, 5000), 'the partial output appeared');
    assert.ok(await eventually(() => processesWith(marker).length > 0));
    const aborted = Date.now();
    ac.abort();
    await refusal(p, 'cancelled', /was stopped/);
    const took = Date.now() - aborted;
    assert.ok(took < 1000, `stopped after ${took} ms`);
    assert.deepEqual(readdirSync(outputsDir), [], 'the run folder and its partial output are gone');
    assert.ok(await eventually(() => processesWith(marker).length === 0), 'the program is gone');

    const before = new AbortController();
    before.abort();
    await refusal(
      runCommand({ program: 'echo', argv: [], pluginDir }, {}, ctxFor(outputsDir, { signal: before.signal })),
      'cancelled',
      /before it started/,
    );
    assert.deepEqual(readdirSync(outputsDir), []);
  });

  test("GDAL's progress on stdout (0...10...20) becomes rising fractions", async () => {
    const progress: [number, string][] = [];
    const script = 'printf "version 3.6.2\\n0...10..."; sleep 0.2; printf ".20...30"; sleep 0.2; printf "...40 5...100 - done.\\n"';
    const r = await run('sh', ['-c', script], {}, { progress: (f, m) => progress.push([f, m]) });
    assert.equal(r.ok, true);
    assert.deepEqual(
      progress.map(([f]) => f),
      [0, 0.1, 0.2, 1, 1],
    );
    assert.deepEqual(progress[0], [0, 'Running sh (unsandboxed)']);
    assert.deepEqual(progress[1], [0.1, 'sh: 10%']);
  });

  test('a failing program: exit code, stderr in the failure, run folder removed, no files', async () => {
    const r = await run('sh', ['-c', 'echo data > out.txt; echo broken input >&2; exit 3'], {}, { outputs: ['out.txt'] });
    assert.equal(r.ok, false);
    assert.equal(r.ended, 'exit');
    assert.equal(r.exitCode, 3);
    assert.deepEqual(r.files, []);
    assert.equal(existsSync(r.workDir), false);
    const failure = commandFailure(r)!;
    assert.equal(failure.code, 'handler_error');
    assert.match(failure.message, /sh failed with exit code 3\.\nbroken input/);
  });

  test('declared outputs that exist are returned; links and undeclared files are not', async () => {
    const r = await run(
      'sh',
      ['-c', 'echo a > a.txt; echo b > other.txt; mkdir d.gdb; ln -s /etc/passwd link.txt'],
      {},
      {
        outputs: ['a.txt', 'missing.txt', 'd.gdb', 'link.txt'],
        label: 'demo.tool/../x',
      },
    );
    assert.equal(r.ok, true);
    assert.deepEqual(r.files, [join(r.workDir, 'a.txt'), join(r.workDir, 'd.gdb')]);
    assert.match(r.workDir, /\/outputs\/demo\.tool_\.\._x-[^/]+$/);
    assert.equal(readFileSync(r.files[0]!, 'utf8'), 'a\n');
    assert.equal(commandFailure(r), null);
  });

  test('programs: safe PATH names, absolute paths, files inside the plugin folder only', async () => {
    const { outputsDir, pluginDir } = dirs();
    mkdirSync(join(pluginDir, 'bin'));
    writeFileSync(join(pluginDir, 'bin', 'hello.sh'), '#!/bin/sh\necho "hello $1"\n');
    chmodSync(join(pluginDir, 'bin', 'hello.sh'), 0o755);
    writeFileSync(join(pluginDir, 'bin', 'data.txt'), 'not a program');
    writeFileSync(join(pluginDir, '..', 'outside.sh'), '#!/bin/sh\necho outside\n');
    chmodSync(join(pluginDir, '..', 'outside.sh'), 0o755);
    symlinkSync('/bin/sh', join(pluginDir, 'bin', 'shell'));
    symlinkSync('../../outside.sh', join(pluginDir, 'bin', 'sneaky'));
    const spec = (program: string): CommandSpec => ({ program, argv: ['{who}'], pluginDir });
    const go = (program: string) => runCommand(spec(program), { who: 'world' }, ctxFor(outputsDir));

    assert.equal((await go('bin/hello.sh')).stdout, 'hello world\n');
    assert.equal((await go('./bin/../bin/hello.sh')).stdout, 'hello world\n');
    assert.equal((await go('/bin/echo')).stdout, 'world\n');
    await refusal(go('../outside.sh'), 'not_allowed', /outside the plugin folder/);
    await refusal(go('bin/shell'), 'not_allowed', /outside the plugin folder/);
    await refusal(go('bin/sneaky'), 'not_allowed', /outside the plugin folder/);
    await refusal(go('bin/data.txt'), 'handler_error', /not an executable file/);
    await refusal(go('bin/none'), 'handler_error', /does not exist in the plugin folder/);
    await refusal(go('no-such-program-anywhere'), 'handler_error', /not found in \/usr\/local\/bin:\/usr\/bin:\/bin/);
    await refusal(go('/no/such/program'), 'handler_error', /not an executable file/);
    await refusal(
      runCommand({ ...spec('echo'), outputs: ['../escape.txt'] }, { who: 'x' }, ctxFor(outputsDir)),
      'handler_error',
      /plain file name/,
    );
    assert.equal(validateCommandSpec(spec('echo'), ['who']), '/usr/bin/echo');
    assert.throws(() => validateCommandSpec(spec('echo'), ['someone']), /unknown placeholder \{who\}/);
  });
});

/** Exactly the allowed variables; bubblewrap itself adds PWD (the run folder, its working directory). */
function assertScrubbed(r: CommandResult): void {
  assert.equal(r.ok, true, r.stderr);
  const env = Object.fromEntries(
    r.stdout
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const expected: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: r.workDir,
    LANG: 'C.UTF-8',
    TMPDIR: r.workDir,
    GDAL_PAM_ENABLED: 'NO',
  };
  if (r.sandboxed) expected.PWD = r.workDir;
  assert.deepEqual(env, expected);
}

describe('command runs under bubblewrap', async () => {
  const support = await sandboxSupport();
  const skip = support.available ? false : `bubblewrap unavailable: ${support.reason}`;
  if (skip) console.log(`# skipping sandbox tests: ${skip}`);
  const sandboxed = (program: string, argv: string[], args: Record<string, unknown> = {}, over: Parameters<typeof run>[3] = {}) =>
    run(program, argv, args, { sandbox: 'auto', ...over });

  let server: Server;
  let port = 0;
  let connections = 0;
  before(async () => {
    server = createServer((socket) => {
      connections++;
      socket.on('error', () => {}); // the probe closes at once: a reset is expected
      socket.end('hi\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('the run folder is writable; outside it nothing reaches the host', { skip }, async () => {
    const hostFile = `/var/tmp/mapwright-sandbox-escape-${process.pid}`;
    const tmpFile = join(tmp.dir, `escape-${process.pid}`);
    try {
      const r = await sandboxed(
        'sh',
        [
          '-c',
          'echo inside > out.txt; touch "$1"; echo "ro=$?"; touch "$2" && echo "tmp=$?"; touch "$3"; echo "usr=$?"',
          'sh',
          '{a}',
          '{b}',
          '{c}',
        ],
        { a: hostFile, b: tmpFile, c: '/usr/local/mapwright-escape' },
        { outputs: ['out.txt'] },
      );
      assert.equal(r.sandboxed, true);
      assert.equal(r.ok, true, r.stderr);
      assert.match(r.stdout, /ro=1/);
      assert.match(r.stdout, /usr=1/);
      assert.match(r.stderr, /Read-only file system/);
      assert.equal(existsSync(hostFile), false, 'nothing written on the host outside the run folder');
      assert.equal(existsSync(tmpFile), false, "a write to /tmp lands in the sandbox's private tmpfs");
      assert.equal(existsSync('/usr/local/mapwright-escape'), false);
      assert.deepEqual(r.files, [join(r.workDir, 'out.txt')]);
      assert.equal(readFileSync(r.files[0]!, 'utf8'), 'inside\n');
    } finally {
      rmSync(hostFile, { force: true });
      rmSync('/usr/local/mapwright-escape', { force: true });
    }
  });

  test('there is no network: a loopback server the test runs cannot be reached', { skip }, async () => {
    const connect = ['-c', 'exec 3<>/dev/tcp/127.0.0.1/$1 && echo connected', 'bash', '{port}'];
    const control = await run('bash', connect, { port });
    assert.equal(control.stdout, 'connected\n', 'unsandboxed, the probe does connect');
    assert.equal(connections, 1);
    const r = await sandboxed('bash', connect, { port });
    assert.equal(r.sandboxed, true);
    assert.notEqual(r.exitCode, 0);
    assert.doesNotMatch(r.stdout, /connected/);
    assert.equal(connections, 1, 'the server saw no connection from the sandbox');
  });

  test('the environment is scrubbed inside the sandbox too', { skip }, async () => {
    process.env.OPENAI_API_KEY = 'sk-fake-key-for-the-test';
    try {
      const r = await sandboxed('/usr/bin/env', []);
      assert.equal(r.sandboxed, true);
      assertScrubbed(r);
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  test('the time limit kills everything in the sandbox', { skip }, async () => {
    const marker = `31.${process.pid}${Date.now() % 1000}`;
    const r = await sandboxed('sh', ['-c', `sleep ${marker} & sleep ${marker}; wait`], {}, { timeoutMs: 300 });
    assert.equal(r.ended, 'timeout');
    assert.ok(await eventually(() => processesWith(marker).length === 0), `left running: ${processesWith(marker).join(', ')}`);
  });

  test('private paths are hidden, read paths shown, the plugin folder readable', { skip }, async () => {
    const { outputsDir, pluginDir } = dirs();
    const shown = join(tmp.dir, `shown-${counter}.txt`);
    writeFileSync(shown, 'project data\n');
    writeFileSync(join(pluginDir, 'run.sh'), '#!/bin/sh\ncat "$1"; echo "rc=$?"\n');
    chmodSync(join(pluginDir, 'run.sh'), 0o755);
    const gisDir = fixture('');
    const go = (path: string, over: Partial<CommandContext>) =>
      runCommand({ program: './run.sh', argv: ['{path}'], pluginDir }, { path }, ctxFor(outputsDir, { sandbox: 'auto', ...over }));

    const hiddenDir = await go(join(gisDir, 'MANIFEST.tsv'), { hidePaths: [gisDir] });
    assert.equal(hiddenDir.sandboxed, true);
    assert.match(hiddenDir.stdout, /rc=1/);
    const hiddenFile = await go(join(gisDir, 'MANIFEST.tsv'), { hidePaths: [join(gisDir, 'MANIFEST.tsv')] });
    assert.equal(hiddenFile.stdout, 'rc=1\n', 'a hidden file cannot be read');
    const notShown = await go(shown, {});
    assert.match(notShown.stdout, /rc=1/, 'the host /tmp is not visible');
    const readable = await go(shown, { readPaths: [shown] });
    assert.equal(readable.stdout, 'project data\nrc=0\n');
  });

  test('gdal_translate converts a fixture into the run folder, returned in files', { skip: skip || gdalSkipReason }, async () => {
    const progress: number[] = [];
    const r = await sandboxed(
      'gdal_translate',
      ['-of', 'GTiff', '-outsize', '50%', '50%', '-a_nodata', '{nodata}', '{input}', 'half.tif'],
      { input: fixture('elev.tif'), nodata: -9999 },
      // The fixture's folder is shown, as the app shows a layer's folder (it may be under /tmp, which the sandbox hides).
      { outputs: ['half.tif'], progress: (f) => progress.push(f), readPaths: [dirname(fixture('elev.tif'))] },
    );
    assert.equal(r.sandboxed, true);
    assert.equal(r.ok, true, r.stderr);
    assert.deepEqual(r.files, [join(r.workDir, 'half.tif')]);
    const head = readFileSync(r.files[0]!).subarray(0, 4);
    assert.ok(head.equals(Buffer.from('II*\0', 'latin1')) || head.equals(Buffer.from('MM\0*', 'latin1')), 'a TIFF');
    assert.deepEqual(readdirSync(r.workDir), ['half.tif'], 'no .aux.xml (PAM off)');
    assert.equal(progress[0], 0);
    assert.equal(progress.at(-1), 1);
  });
});
