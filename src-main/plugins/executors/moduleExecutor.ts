import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import {
  encodeLine,
  HostToMain,
  lineSplitter,
  MODULE_HANDLES,
  moduleFetchAnswer,
  moduleLayerInfo,
  parseLine,
  type HandleCall,
  type MainToHost,
  type ModuleFetchAnswer,
  type ModuleFetchInit,
  type ModuleHandleName,
  type ModuleLayerInfo,
} from '../../../src-shared/plugins/moduleRpc.js';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import { sandboxArgs, sandboxSupport } from './bwrapSandbox.js';
import { commandEnvironment } from './commandExecutor.js';

/**
 * The `module` executor of a plugin: a JavaScript module written with the plugin SDK
 * (plugins/mapwright-plugin.d.ts), loaded in its own plugin-host process, never in main
 * (one process per plugin version, kept between calls). The module reaches the app only
 * through the handles its manifest requires, each answered here by a function main passes in
 * (the `net` one applies main's SSRF guard). Protocol: src-shared/plugins/moduleRpc.ts.
 *
 * Isolation, each layer where it works:
 *  - a scrubbed environment (commandEnvironment), the plugin's folder as working directory, its
 *    own process group (killed whole on Stop);
 *  - Node's permission model: reads only the host bundle, the plugin folder, the outputs folder
 *    and `readPaths`; writes only the outputs folder; no child processes, worker threads,
 *    native addons or inspector. It does not limit the network (Node 20/22);
 *  - bubblewrap, as for `command` tools: no network, the file system read-only, `hidePaths`
 *    hidden, the host's /tmp replaced by an empty one (so `readPaths` must name anything under
 *    /tmp the host reads — e.g. test fixtures).
 */

/** Handle implementations main passes in; only those the manifest requires reach the module. */
export interface ModuleHandles {
  project?: { layers(): Promise<ModuleLayerInfo[]> };
  /** Runs in main: apply the SSRF guard and the plugin's approved origins here. */
  net?: { fetch(url: string, init: ModuleFetchInit, signal: AbortSignal): Promise<ModuleFetchAnswer> };
}

export interface ModuleHostOptions {
  /** The plugin version's folder (absolute): the host's working directory, readable. */
  pluginDir: string;
  /** The module, relative to `pluginDir` (the manifest's `executor.entry`). */
  entry: string;
  /** The manifest's `requires`; `project` and `net` are the ones a module can be given. */
  requires: readonly string[];
  handles: ModuleHandles;
  /** The project's outputs folder: every call's `workDir` lies under it; the only writable place. */
  outputsDir: string;
  /** The built host (`dist/main/plugin-host.mjs`; tests and dev build one with buildPluginHost.ts). */
  hostEntry: string;
  /** The runtime to start; `process.execPath` by default. In Electron's main give Electron with `runAsNode`. */
  execPath?: string;
  /** Sets ELECTRON_RUN_AS_NODE=1 (when `execPath` is Electron). */
  runAsNode?: boolean;
  /** `auto`: under bubblewrap where it works; `off`: never. */
  sandbox: 'auto' | 'off';
  /** `auto`: Node's permission model where the runtime has it; `off`: never (tests of the fallback). */
  permissions?: 'auto' | 'off';
  readPaths?: readonly string[];
  hidePaths?: readonly string[];
  /** How long loading may take, and the default time limit of a call. */
  timeoutMs: number;
}

export interface ModuleCallOptions {
  signal: AbortSignal;
  /** The call's own folder, under `outputsDir` (created when missing). */
  workDir: string;
  timeoutMs?: number;
  progress?(fraction: number, message: string): void;
  log?(text: string): void;
  /** Handles this call may use, of those granted (default: all of them). */
  handles?: readonly ModuleHandleName[];
}

export interface ModuleCallResult {
  /** What `run` returned (JSON). */
  result: unknown;
  /** Absolute paths of the files it returned, each checked to exist inside `workDir`. */
  files: string[];
}

/** What held when the host last started. */
export interface ModuleIsolation {
  /** The permission-model flag used, or null. */
  permissionFlag: string | null;
  sandboxed: boolean;
  /** Why a layer is missing. */
  notes: string[];
}

/** After Stop (or the time limit) the host gets this long to end the call before its process group is killed. */
export const CANCEL_GRACE_MS = 500;
const STDERR_TAIL_CHARS = 4000;

interface PendingCall {
  resolve(v: ModuleCallResult): void;
  reject(e: Error): void;
  opts: ModuleCallOptions;
  workDir: string;
  tool: string;
  /** Set when Stop or the time limit asked it to end: the failure it ends with. */
  ending: ToolFailure | null;
  killTimer: NodeJS.Timeout | null;
  cleanup(): void;
}

interface Proc {
  child: ChildProcessWithoutNullStreams;
  pending: Map<number, PendingCall>;
  stderr: string;
  exited: boolean;
  /** Why main killed it (a malformed message, a stop), for the pending calls' errors. */
  killedFor: string | null;
  onLoad: ((m: { ok: true; tools: string[] } | { ok: false; message: string }) => void) | null;
}

export class ModuleHost {
  private proc: Proc | null = null;
  private starting: Promise<Proc> | null = null;
  private nextId = 1;
  private closed = false;
  /** Tool names the module defined (as of the last load). */
  tools: string[] = [];
  isolation: ModuleIsolation = { permissionFlag: null, sandboxed: false, notes: [] };

  private constructor(private readonly opts: ModuleHostOptions) {}

  /**
   * Starts the host and loads the module. A module that fails to load (a syntax error, a bad
   * default export) throws ToolFailure('handler_error') with the module's error.
   */
  static async start(opts: ModuleHostOptions): Promise<ModuleHost> {
    const host = new ModuleHost(opts);
    await host.ensure();
    return host;
  }

  /** The handles the module gets: required by the manifest and given by main. */
  get granted(): ModuleHandleName[] {
    return MODULE_HANDLES.filter((h) => this.opts.requires.includes(h) && this.opts.handles[h] !== undefined);
  }

  /**
   * Runs one tool. Stop (the signal) or the time limit sends `cancel`, then kills the host's
   * process group after CANCEL_GRACE_MS if the call has not ended (the next call starts a new
   * host); a host that dies fails its calls with its stderr's tail.
   */
  async call(tool: string, args: unknown, opts: ModuleCallOptions): Promise<ModuleCallResult> {
    if (this.closed) throw new ToolFailure('handler_error', 'The plugin host was closed.');
    if (opts.signal.aborted) throw new ToolFailure('cancelled', `${tool} was stopped before it started.`);
    const workDir = this.checkWorkDir(opts.workDir);
    const proc = await this.ensure();
    if (opts.signal.aborted) throw new ToolFailure('cancelled', `${tool} was stopped before it started.`);
    if (!this.tools.includes(tool))
      throw new ToolFailure('unknown_tool', `The module defines no tool '${tool}' (it has: ${this.tools.join(', ')}).`);
    const id = this.nextId++;
    return new Promise<ModuleCallResult>((resolvePromise, rejectPromise) => {
      const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs;
      const pending: PendingCall = {
        resolve: resolvePromise,
        reject: rejectPromise,
        opts,
        workDir,
        tool,
        ending: null,
        killTimer: null,
        cleanup: () => {
          clearTimeout(timer);
          if (pending.killTimer) clearTimeout(pending.killTimer);
          opts.signal.removeEventListener('abort', onAbort);
        },
      };
      const end = (failure: ToolFailure) => {
        if (pending.ending || !proc.pending.has(id)) return;
        pending.ending = failure;
        this.send(proc, { type: 'cancel', id });
        pending.killTimer = setTimeout(() => this.kill(proc, `${tool}: ${failure.message}`), CANCEL_GRACE_MS);
      };
      const onAbort = () => end(new ToolFailure('cancelled', `${tool} was stopped.`));
      const timer = setTimeout(
        () => end(new ToolFailure('timeout', `${tool} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`)),
        timeoutMs,
      );
      opts.signal.addEventListener('abort', onAbort, { once: true });
      proc.pending.set(id, pending);
      this.send(proc, { type: 'call', id, tool, args: args ?? {}, workDir });
    });
  }

  /** Ends the host (its process group) and fails the calls still running. */
  close(): void {
    this.closed = true;
    if (this.proc) this.kill(this.proc, 'the plugin host was closed');
  }

  // ─── the process ──────────────────────────────────────────────────────────

  private ensure(): Promise<Proc> {
    if (this.proc && !this.proc.exited && !this.proc.killedFor) return Promise.resolve(this.proc);
    this.starting ??= this.launch().finally(() => (this.starting = null));
    return this.starting;
  }

  private async launch(): Promise<Proc> {
    const o = this.opts;
    const pluginDir = realpathSync(o.pluginDir);
    const entry = resolve(pluginDir, o.entry);
    const outputsDir = (mkdirSync(o.outputsDir, { recursive: true }), realpathSync(o.outputsDir));
    const hostEntry = realpathSync(o.hostEntry);
    const execPath = o.execPath ?? process.execPath;
    const readPaths = realPaths(o.readPaths);
    const notes: string[] = [];

    const permissionFlag = o.permissions === 'off' ? null : permissionFlagFor(execPath, o.runAsNode === true);
    if (o.permissions === 'off') notes.push('permission model turned off');
    else if (!permissionFlag) notes.push(`${execPath} has no permission model`);
    const nodeArgs = [
      ...(permissionFlag
        ? [
            permissionFlag,
            // Node 20 aborts (a failed assertion in its permission tree) on a path given twice.
            ...[...new Set([hostEntry, pluginDir, outputsDir, ...readPaths])].map((p) => `--allow-fs-read=${p}`),
            `--allow-fs-write=${outputsDir}`,
          ]
        : []),
      '--no-warnings',
      hostEntry,
    ];

    const support = o.sandbox === 'off' ? null : await sandboxSupport();
    if (support === null) notes.push('sandbox turned off');
    else if (!support.available) notes.push(support.reason);
    let file = execPath;
    let args = nodeArgs;
    if (support?.available) {
      // The host's /tmp is hidden inside bwrap: show what the process reads from there.
      const tmp = realpathSync(tmpdir());
      const underTmp = (p: string) => p === tmp || p.startsWith(tmp + sep) || p.startsWith('/tmp/');
      const runtime = realpathSync(execPath);
      const shown = [pluginDir, dirname(hostEntry), ...readPaths, ...(underTmp(runtime) ? [dirname(runtime)] : [])];
      args = sandboxArgs({ workDir: outputsDir, readPaths: shown, hidePaths: realPaths(o.hidePaths) }, execPath, nodeArgs);
      // sandboxArgs starts the program in the writable folder; a module host starts in its plugin's.
      const chdir = args.indexOf('--chdir');
      if (chdir >= 0) args[chdir + 1] = pluginDir;
      file = support.bwrap;
    }
    this.isolation = { permissionFlag, sandboxed: support?.available === true, notes };

    const child = spawn(file, args, {
      cwd: pluginDir,
      env: { ...commandEnvironment(outputsDir), ...(o.runAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const proc: Proc = { child, pending: new Map(), stderr: '', exited: false, killedFor: null, onLoad: null };
    this.proc = proc;

    const splitter = lineSplitter();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      for (const line of splitter.push(chunk)) {
        if (proc.exited || proc.killedFor) return;
        const parsed = parseLine(HostToMain, line);
        if (!parsed.ok) {
          this.kill(proc, `the plugin host sent a malformed message (${parsed.problem})`);
          return;
        }
        this.onMessage(proc, parsed.message);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      proc.stderr = (proc.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.stdin.on('error', () => {}); // EPIPE after death: the exit handler reports it
    child.on('error', (err) => {
      proc.stderr += `\n${err.message}`;
      if (child.pid === undefined) this.onExit(proc, null, null);
    });
    child.on('exit', (code, signal) => this.onExit(proc, code, signal));

    const loaded = await new Promise<{ ok: true; tools: string[] } | { ok: false; message: string }>((res) => {
      const timer = setTimeout(() => {
        this.kill(proc, `the module did not load within ${Math.round(o.timeoutMs / 1000)} s`);
      }, o.timeoutMs);
      proc.onLoad = (m) => {
        clearTimeout(timer);
        proc.onLoad = null;
        res(m);
      };
      this.send(proc, { type: 'load', entry, pluginDir, requires: this.granted });
    });
    if (!loaded.ok) {
      this.kill(proc, 'the module failed to load');
      if (this.proc === proc) this.proc = null;
      throw new ToolFailure('handler_error', `The plugin module ${o.entry} failed to load: ${loaded.message}`);
    }
    this.tools = loaded.tools;
    return proc;
  }

  private send(proc: Proc, message: MainToHost): void {
    if (proc.exited || !proc.child.stdin.writable) return;
    proc.child.stdin.write(encodeLine(message));
  }

  private kill(proc: Proc, why: string): void {
    proc.killedFor ??= why;
    if (proc.exited) return;
    const pid = proc.child.pid;
    try {
      if (pid !== undefined) process.kill(-pid, 'SIGKILL');
      else proc.child.kill('SIGKILL');
    } catch {
      proc.child.kill('SIGKILL');
    }
  }

  private onExit(proc: Proc, code: number | null, signal: NodeJS.Signals | null): void {
    if (proc.exited) return;
    proc.exited = true;
    if (this.proc === proc) this.proc = null;
    const how = proc.killedFor ?? `the plugin host exited (${signal ? `killed by ${signal}` : `exit code ${code}`})`;
    const tail = lastLines(proc.stderr);
    const message = `${how}${tail ? `\n${tail}` : ''}`;
    proc.onLoad?.({ ok: false, message });
    for (const [id, call] of proc.pending) {
      proc.pending.delete(id);
      call.cleanup();
      call.reject(call.ending ?? new ToolFailure('handler_error', `${call.tool} failed: ${message}`));
    }
  }

  private onMessage(proc: Proc, msg: HostToMain): void {
    switch (msg.type) {
      case 'loaded':
        proc.onLoad?.({ ok: true, tools: msg.tools });
        return;
      case 'load_error':
        proc.onLoad?.({ ok: false, message: msg.message });
        return;
      case 'log': {
        const call = msg.id === undefined ? undefined : proc.pending.get(msg.id);
        if (call?.opts.log) call.opts.log(msg.text);
        else proc.stderr = (proc.stderr + `${msg.text}\n`).slice(-STDERR_TAIL_CHARS);
        return;
      }
      case 'progress':
        proc.pending.get(msg.id)?.opts.progress?.(msg.fraction, msg.message);
        return;
      case 'result':
      case 'error': {
        const call = proc.pending.get(msg.id);
        if (!call) return;
        proc.pending.delete(msg.id);
        call.cleanup();
        if (call.ending) return call.reject(call.ending);
        if (msg.type === 'error') return call.reject(new ToolFailure(msg.code, `${call.tool}: ${msg.message}`));
        try {
          call.resolve({ result: msg.result, files: outputFiles(call.workDir, msg.files) });
        } catch (err) {
          call.reject(err as Error);
        }
        return;
      }
      case 'handle_request':
        void this.answerHandle(proc, msg.id, msg.call, msg.request);
    }
  }

  /** A handle call from the module: only during one of its calls, only a granted handle. */
  private async answerHandle(proc: Proc, id: number, callId: number, request: HandleCall): Promise<void> {
    const call = proc.pending.get(callId);
    const reply = (r: { ok: true; value: unknown } | { ok: false; message: string }) => this.send(proc, { type: 'handle_reply', id, ...r });
    if (!call) return reply({ ok: false, message: 'handles can be used only during a call' });
    if (!this.granted.includes(request.handle))
      return reply({ ok: false, message: `the plugin was not given the '${request.handle}' handle (add it to requires)` });
    // A plugin's tools share one host: the network is for the calls of tools that declare it
    // (their calls were approved as network calls), not for every tool of a plugin that has one.
    if (call.opts.handles && !call.opts.handles.includes(request.handle))
      return reply({
        ok: false,
        message: `the tool ${call.tool} may not use the '${request.handle}' handle (it does not declare network: true)`,
      });
    try {
      if (request.handle === 'project') {
        const layers = await this.opts.handles.project!.layers();
        return reply({ ok: true, value: moduleLayerInfo.array().parse(layers) });
      }
      const [url, init = {}] = request.args;
      const answer = await this.opts.handles.net!.fetch(url, init, call.opts.signal);
      return reply({ ok: true, value: moduleFetchAnswer.parse(answer) });
    } catch (err) {
      return reply({ ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  }

  private checkWorkDir(workDir: string): string {
    const root = (mkdirSync(this.opts.outputsDir, { recursive: true }), realpathSync(this.opts.outputsDir));
    const wanted = resolve(workDir);
    if (!inside(root, wanted))
      throw new ToolFailure('not_allowed', `The call's folder ${workDir} is not inside the outputs folder ${this.opts.outputsDir}.`);
    mkdirSync(wanted, { recursive: true });
    const real = realpathSync(wanted);
    if (!inside(root, real)) throw new ToolFailure('not_allowed', `The call's folder ${workDir} leads outside the outputs folder.`);
    return real;
  }
}

/** The files a call returned: names inside its folder that exist (regular files or folders). Anything else is refused. */
export function outputFiles(workDir: string, names: readonly string[]): string[] {
  return names.map((name) => {
    const path = resolve(workDir, name);
    if (!inside(workDir, path) || path === workDir)
      throw new ToolFailure('not_allowed', `The module returned '${name}', which is not inside its working folder: refused.`);
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new ToolFailure('handler_error', `The module returned the file '${name}', which does not exist in its working folder.`);
    }
    if (!inside(workDir, real) || real === workDir)
      throw new ToolFailure('not_allowed', `The module returned '${name}', which is not inside its working folder: refused.`);
    const st = lstatSync(real);
    if (!st.isFile() && !st.isDirectory()) throw new ToolFailure('not_allowed', `'${name}' is neither a file nor a folder: refused.`);
    return real;
  });
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

const permissionFlags = new Map<string, string | null>();

/**
 * The permission-model flag the runtime accepts: `--permission` (Node ≥ 22.13/23.5),
 * `--experimental-permission` (Node 20, 22), or null. Probed once per runtime.
 */
export function permissionFlagFor(execPath: string, runAsNode: boolean): string | null {
  const key = `${execPath}\0${runAsNode}`;
  if (permissionFlags.has(key)) return permissionFlags.get(key) ?? null;
  let found: string | null = null;
  for (const flag of ['--permission', '--experimental-permission']) {
    const probe = spawnSync(execPath, [flag, '--no-warnings', '-e', '0'], {
      env: { ...commandEnvironment(tmpdir()), ...(runAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
      stdio: 'ignore',
      timeout: 10_000,
    });
    if (probe.status === 0) {
      found = flag;
      break;
    }
  }
  permissionFlags.set(key, found);
  return found;
}

/** The paths that exist, resolved through links (for mounts and permission flags). */
export function realPaths(paths: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const p of paths ?? []) {
    if (!existsSync(p)) continue;
    out.push(realpathSync(p));
  }
  return out;
}

function lastLines(text: string, lines = 12): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
