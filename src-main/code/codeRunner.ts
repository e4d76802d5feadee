import { createRequire } from 'node:module';
import { unpackedPath } from '../paths/unpackedPath.js';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep, isAbsolute } from 'node:path';
import { lineSplitter, parseLine } from '../../src-shared/plugins/moduleRpc.js';
import { ToolFailure, type ToolErrorCode } from '../../src-shared/tools/toolResult.js';
import { sandboxArgs, sandboxSupport } from '../plugins/executors/bwrapSandbox.js';
import { commandEnvironment } from '../plugins/executors/commandExecutor.js';
import { permissionFlagFor, realPaths } from '../plugins/executors/moduleExecutor.js';
import {
  BrokerToMain,
  encode,
  SnippetToMain,
  type BrokerLayer,
  type BrokerOutput,
  type CodeError,
  type MainToBroker,
  type MainToSnippet,
} from './codeProtocol.js';

/**
 * Runs one approved JavaScript snippet (`code.run_js`) in two fresh child processes, never in
 * main or the GIS worker, and ends both when it ends:
 *
 *  - the snippet host (code-host.mjs) runs the code under Node's permission model — it may
 *    read only itself and the run's folder, write only the run's folder, and start no process,
 *    worker, native addon or inspector — with `--max-old-space-size`, code generation from
 *    strings off, an address-space limit (`ulimit -v`) where the runtime starts under one, and,
 *    where bubblewrap works, no network and the app's private paths hidden;
 *  - the GDAL broker (gdal-broker.mjs), plain Node with gdal-async (the permission model
 *    refuses native addons), under bubblewrap where it works: it opens only the layers main
 *    names, read-only, and writes only the outputs the snippet created in the run's folder.
 *
 * Main relays every GDAL call between the two (codeProtocol.ts), keeps the budgets (wall time,
 * printed text) and kills both process groups on Stop, at the time limit, or when either dies;
 * a run that did not succeed leaves nothing behind (its folder is removed).
 */

export interface CodeRunOptions {
  code: string;
  /** The project's layers the snippet may open, by name. */
  layers: readonly BrokerLayer[];
  /** The project's outputs folder: the run gets a fresh folder under it. */
  outputsDir: string;
  /** Built children (buildCodeHosts.ts): dist/main/code-host.mjs and gdal-broker.mjs. */
  snippetHost: string;
  broker: string;
  execPath?: string;
  runAsNode?: boolean;
  /** `auto`: under bubblewrap where it works. */
  sandbox: 'auto' | 'off';
  /** Paths the children must not see (the app's data folder, keys, the project database). */
  hidePaths?: readonly string[];
  signal: AbortSignal;
  /** Wall time (default 60 s). */
  timeoutMs?: number;
  /** The snippet host's V8 heap (default 512 MB). */
  memoryMb?: number;
  /** How many printed characters come back (default 2,000). */
  printCap?: number;
  /** Tests only: leaves code generation from strings on, to reach the host realm and check the real boundaries. */
  allowStringCodeGeneration?: boolean;
  /** Tests only: turns the permission model off (to show what the sandbox alone holds). */
  permissions?: 'auto' | 'off';
  onPrint?(text: string): void;
}

export interface CodeOutput {
  name: string;
  kind: 'gpkg' | 'tif';
  path: string;
}

export interface CodeIsolation {
  permissionFlag: string | null;
  sandboxed: boolean;
  addressSpaceLimit: boolean;
  notes: string[];
}

export interface CodeRunResult {
  /** The first `printCap` characters printed. */
  printed: string;
  /** How many characters were printed in all. */
  printedChars: number;
  outputs: CodeOutput[];
  runDir: string;
  isolation: CodeIsolation;
  /** Spawn to both children ready; spawn to the end. */
  startupMs: number;
  totalMs: number;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MEMORY_MB = 512;
export const DEFAULT_PRINT_CAP = 2000;
const BROKER_MEMORY_MB = 2048;
/** Closing the outputs after the snippet ended may take this long. */
const FINISH_TIMEOUT_MS = 60_000;
const STDERR_TAIL = 4000;

/** A failed run: a ToolFailure whose message is the structured error, for the model. */
export class CodeRunFailure extends ToolFailure {
  constructor(
    readonly error: CodeError,
    readonly printed: string,
  ) {
    super(codeOf(error.kind), describeCodeError(error, printed), error.kind === 'timeout' || error.kind === 'crashed', hintOf(error));
  }
}

function codeOf(kind: CodeError['kind']): ToolErrorCode {
  if (kind === 'timeout') return 'timeout';
  if (kind === 'cancelled') return 'cancelled';
  if (kind === 'not_allowed') return 'not_allowed';
  return 'handler_error';
}

function hintOf(error: CodeError): string | undefined {
  switch (error.kind) {
    case 'syntax_error':
      return 'Fix the code at that line and column; the snippet is the body of an async function (no import/require).';
    case 'memory_limit':
      return 'Process the data in pieces (features() with a limit, read() in tiles) instead of holding it all.';
    case 'timeout':
      return 'Do less in one run (filter with where, fewer features), or split the work over several runs.';
    default:
      return undefined;
  }
}

/** The error as the model reads it: kind, where, message, the snippet's frames, then what was printed. */
export function describeCodeError(error: CodeError, printed = ''): string {
  const where = error.line ? ` at line ${error.line}${error.column ? `, column ${error.column}` : ''}` : '';
  const lines = [`${error.kind}${where}: ${error.message}`, ...(error.stack ?? []).map((l) => `  ${l}`)];
  if (printed) lines.push(`printed before it ended:\n${printed.trimEnd()}`);
  return lines.join('\n');
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

const asLimitWorks = new Map<string, boolean>();
/** Whether the runtime starts at all under an address-space limit (Electron's V8 sandbox reserves far more). */
function addressSpaceLimitWorks(execPath: string, runAsNode: boolean, kb: number): boolean {
  if (process.platform === 'win32' || !existsSync('/bin/sh')) return false;
  const key = `${execPath}\0${runAsNode}\0${kb}`;
  const known = asLimitWorks.get(key);
  if (known !== undefined) return known;
  const probe = spawnSync('/bin/sh', ['-c', `ulimit -v ${kb} && exec "$0" -e 0`, execPath], {
    env: { ...commandEnvironment(tmpdir()), ...(runAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
    stdio: 'ignore',
    timeout: 10_000,
  });
  const ok = probe.status === 0;
  asLimitWorks.set(key, ok);
  return ok;
}

interface Child {
  name: string;
  proc: ChildProcessWithoutNullStreams;
  stderr: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  done: boolean;
}

/** Runs the snippet; resolves with what it printed and made, or rejects with a CodeRunFailure. */
export async function runCode(o: CodeRunOptions): Promise<CodeRunResult> {
  const t0 = performance.now();
  if (o.signal.aborted) throw new CodeRunFailure({ kind: 'cancelled', message: 'The run was stopped before it started.' }, '');
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const memoryMb = o.memoryMb ?? DEFAULT_MEMORY_MB;
  const printCap = o.printCap ?? DEFAULT_PRINT_CAP;
  const execPath = o.execPath ?? process.execPath;
  const runAsNode = o.runAsNode === true;

  const outputsDir = (mkdirSync(o.outputsDir, { recursive: true }), realpathSync(o.outputsDir));
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const runDir = join(outputsDir, `code-${stamp}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(runDir);
  const snippetHost = realpathSync(o.snippetHost);
  const broker = realpathSync(o.broker);
  const hidePaths = realPaths(o.hidePaths);
  const sources = realPaths(o.layers.map((l) => l.source));
  const notes: string[] = [];

  const permissionFlag = o.permissions === 'off' ? null : permissionFlagFor(execPath, runAsNode);
  if (!permissionFlag) notes.push(o.permissions === 'off' ? 'permission model turned off' : `${execPath} has no permission model`);
  const support = o.sandbox === 'off' ? null : await sandboxSupport();
  if (support === null) notes.push('sandbox turned off');
  else if (!support.available) notes.push(`no sandbox: ${support.reason}; the snippet can reach the network`);
  const asKb = (memoryMb + 1536) * 1024;
  const asLimit = addressSpaceLimitWorks(execPath, runAsNode, asKb);
  if (!asLimit) notes.push('no address-space limit (only the V8 heap limit)');
  const isolation: CodeIsolation = { permissionFlag, sandboxed: support?.available === true, addressSpaceLimit: asLimit, notes };

  const tmp = realpathSync(tmpdir());
  const underTmp = (p: string) => p === tmp || p.startsWith(tmp + sep) || p.startsWith('/tmp/');
  const runtimeDir = dirname(realpathSync(execPath));
  const env = { ...commandEnvironment(runDir), ...(runAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {}) };

  const launch = (name: string, nodeArgs: string[], readPaths: string[], asLimitKb: number | null): Child => {
    let file = execPath;
    let args = nodeArgs;
    if (support?.available) {
      // /tmp is empty inside and the private paths are masked: show what the child must read.
      const shown = [...new Set([...readPaths, ...(underTmp(runtimeDir) ? [runtimeDir] : [])])];
      args = sandboxArgs({ workDir: runDir, readPaths: shown, hidePaths }, execPath, nodeArgs);
      file = support.bwrap;
    }
    if (asLimitKb !== null) {
      args = ['-c', `ulimit -v ${asLimitKb} && exec "$0" "$@"`, file, ...args];
      file = '/bin/sh';
    }
    const proc = spawn(file, args, { cwd: runDir, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const child: Child = {
      name,
      proc,
      stderr: '',
      done: false,
      exited: new Promise((res) => {
        proc.on('error', (err) => {
          child.stderr += `\n${err.message}`;
          if (proc.pid === undefined) res({ code: null, signal: null });
        });
        proc.on('exit', (code, signal) => res({ code, signal }));
      }),
    };
    void child.exited.then(() => (child.done = true));
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (d: string) => (child.stderr = (child.stderr + d).slice(-STDERR_TAIL)));
    proc.stdin.on('error', () => {});
    return child;
  };

  const hostArgs = [
    ...(permissionFlag
      ? [
          permissionFlag,
          // Node 20 aborts on a path given twice.
          ...[...new Set([snippetHost, runDir])].map((p) => `--allow-fs-read=${p}`),
          `--allow-fs-write=${runDir}`,
        ]
      : []),
    `--max-old-space-size=${memoryMb}`,
    ...(o.allowStringCodeGeneration ? [] : ['--disallow-code-generation-from-strings']),
    '--no-warnings',
    snippetHost,
  ];
  const brokerArgs = [`--max-old-space-size=${BROKER_MEMORY_MB}`, '--no-warnings', broker];
  const host = launch('snippet host', hostArgs, [dirname(snippetHost)], asLimit ? asKb : null);
  const gdalBroker = launch('GDAL broker', brokerArgs, [dirname(broker), gdalPackagesDir(), ...sources.map((s) => dirname(s))], null);
  const children = [host, gdalBroker];

  const killAll = () => {
    for (const c of children) {
      if (c.done) continue;
      try {
        if (c.proc.pid !== undefined) process.kill(-c.proc.pid, 'SIGKILL');
        else c.proc.kill('SIGKILL');
      } catch {
        c.proc.kill('SIGKILL');
      }
    }
  };

  let printed = '';
  let printedReceived = 0;
  let startupMs = 0;

  try {
    const outcome = await new Promise<{ ok: true; outputs: BrokerOutput[]; printedChars: number } | { ok: false; error: CodeError }>(
      (resolve) => {
        let settled = false;
        let ready = 0;
        let snippetDone: number | null = null;
        const settle = (v: { ok: true; outputs: BrokerOutput[]; printedChars: number } | { ok: false; error: CodeError }) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          o.signal.removeEventListener('abort', onAbort);
          resolve(v);
        };
        const fail = (error: CodeError) => {
          killAll();
          settle({ ok: false, error });
        };
        const onAbort = () => fail({ kind: 'cancelled', message: 'The run was stopped; its partial output was removed.' });
        o.signal.addEventListener('abort', onAbort, { once: true });
        const timer = setTimeout(
          () =>
            fail({
              kind: 'timeout',
              message: `The snippet ran longer than ${Math.round(timeoutMs / 1000)} s and was stopped; its partial output was removed.`,
            }),
          timeoutMs,
        );

        const sendHost = (m: MainToSnippet) => !host.done && host.proc.stdin.write(encode(m));
        const sendBroker = (m: MainToBroker) => !gdalBroker.done && gdalBroker.proc.stdin.write(encode(m));
        const onReady = () => {
          if (++ready < 2) return;
          startupMs = performance.now() - t0;
          sendBroker({ type: 'init', layers: [...o.layers], runDir });
          sendHost({ type: 'run', code: o.code, printCap });
        };

        const hostLines = lineSplitter();
        host.proc.stdout.setEncoding('utf8');
        host.proc.stdout.on('data', (chunk: string) => {
          for (const line of hostLines.push(chunk)) {
            if (settled) return;
            const parsed = parseLine(SnippetToMain, line);
            if (!parsed.ok) return fail({ kind: 'crashed', message: `The snippet host sent a malformed message (${parsed.problem}).` });
            const msg = parsed.message;
            switch (msg.type) {
              case 'ready':
                onReady();
                break;
              case 'print': {
                const room = printCap - printedReceived;
                const text = msg.text.slice(0, Math.max(0, room));
                printedReceived += msg.text.length;
                printed += text;
                if (text) o.onPrint?.(text);
                break;
              }
              case 'gdal':
                sendBroker({ type: 'call', id: msg.id, call: msg.call });
                break;
              case 'failed':
                return fail(msg.error);
              case 'done':
                snippetDone = msg.printed;
                sendBroker({ type: 'finish' });
                clearTimeout(timer);
                setTimeout(() => fail({ kind: 'crashed', message: 'Closing the outputs took too long.' }), FINISH_TIMEOUT_MS).unref();
                break;
            }
          }
        });
        const brokerLines = lineSplitter();
        gdalBroker.proc.stdout.setEncoding('utf8');
        gdalBroker.proc.stdout.on('data', (chunk: string) => {
          for (const line of brokerLines.push(chunk)) {
            if (settled) return;
            const parsed = parseLine(BrokerToMain, line);
            if (!parsed.ok) return fail({ kind: 'crashed', message: `The GDAL broker sent a malformed message (${parsed.problem}).` });
            const msg = parsed.message;
            if (msg.type === 'ready') onReady();
            else if (msg.type === 'reply')
              sendHost(
                msg.ok
                  ? { type: 'gdal_reply', id: msg.id, ok: true, value: msg.value }
                  : { type: 'gdal_reply', id: msg.id, ok: false, message: msg.message },
              );
            else if (snippetDone !== null) settle({ ok: true, outputs: msg.outputs, printedChars: snippetDone });
          }
        });

        void host.exited.then(({ code, signal }) => {
          if (settled || snippetDone !== null) return;
          fail(crashOf('snippet host', host.stderr, code, signal, memoryMb));
        });
        void gdalBroker.exited.then(({ code, signal }) => {
          if (settled) return;
          fail(crashOf('GDAL broker', gdalBroker.stderr, code, signal, memoryMb));
        });
      },
    );

    if (!outcome.ok) {
      if (outcome.error.kind === 'cancelled' || outcome.error.kind === 'timeout') {
        // Nothing the run wrote may stay: wait until neither child can write any more.
        await Promise.all(children.map((c) => c.exited));
      }
      throw new CodeRunFailure(outcome.error, printed);
    }
    const outputs = outcome.outputs.map((out) => {
      const path = join(runDir, out.file);
      if (!inside(runDir, path) || !existsSync(path) || !statSync(path).isFile())
        throw new CodeRunFailure({ kind: 'crashed', message: `The output ${out.file} is missing.` }, printed);
      return { name: out.name, kind: out.kind, path };
    });
    if (outcome.printedChars > printedReceived) printedReceived = outcome.printedChars;
    for (const c of children) if (!c.done) c.proc.stdin.end();
    return {
      printed,
      printedChars: printedReceived,
      outputs,
      runDir,
      isolation,
      startupMs: Math.round(startupMs),
      totalMs: Math.round(performance.now() - t0),
    };
  } catch (err) {
    killAll();
    await Promise.all(children.map((c) => c.exited));
    rmSync(runDir, { recursive: true, force: true });
    throw err;
  } finally {
    // A success's children exit on their own (stdin closed); make sure of it.
    setTimeout(killAll, 5000).unref();
  }
}

function crashOf(who: string, stderr: string, code: number | null, signal: NodeJS.Signals | null, memoryMb: number): CodeError {
  if (/heap out of memory|Reached heap limit|Allocation failed|allocation failure/i.test(stderr))
    return { kind: 'memory_limit', message: `The snippet used more than its ${memoryMb} MB of memory and was stopped.` };
  const tail = stderr.trim().split('\n').slice(-8).join('\n');
  return {
    kind: 'crashed',
    message: `The ${who} ended unexpectedly (${signal ? `killed by ${signal}` : `exit code ${code}`})${tail ? `:\n${tail}` : '.'}`,
  };
}

/**
 * The node_modules folder gdal-async is installed in: the broker imports it from there, so the
 * sandbox must show it (a checkout under /tmp, as on CI, is otherwise hidden by bwrap's empty /tmp).
 */
function gdalPackagesDir(): string {
  const pkg = createRequire(import.meta.url).resolve('gdal-async/package.json');
  // Packaged, the lookup lands inside app.asar, which the broker's sandbox cannot see: the
  // unpacked copy is what it loads (electron-builder.config.ts unpacks gdal-async).
  return unpackedPath(dirname(dirname(realpathSync(pkg))));
}
