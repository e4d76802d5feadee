import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import { ArgvTemplateError, expandArgv, validateArgvTemplate } from './argvTemplate.js';
import { sandboxArgs, sandboxSupport } from './bwrapSandbox.js';
import { ProgramError, SAFE_PATH, resolveProgram } from './commandProgram.js';

/**
 * The `command` executor of a plugin (issue #12): a program with an argv template, never a
 * shell string, run in a fresh folder under the project's outputs with a scrubbed environment,
 * a time limit, an output cap, killed at once on Stop; under bubblewrap where it works (no
 * network, the file system read-only except its folder). See argvTemplate.ts for the rule that
 * keeps a value from becoming an option, commandProgram.ts for where programs may live.
 */

/** What a plugin declares for one `command` tool. */
export interface CommandSpec {
  /** An absolute path, a bare name looked up in `SAFE_PATH`, or a path inside the plugin folder (`bin/x.sh`). */
  program: string;
  /** One template element per argv entry, with `{param}` placeholders. */
  argv: readonly string[];
  /** The plugin's folder: where relative program paths live. */
  pluginDir: string;
  /** Plain file names (no slashes) the program may write in its folder; those present after a success are returned. */
  outputs?: readonly string[];
}

/** How one call runs. */
export interface CommandContext {
  /** The project's outputs folder; the run gets a fresh folder under it, created here. */
  outputsDir: string;
  /** Start of the run folder's name (e.g. the tool id); sanitised. */
  label?: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Cap on stdout + stderr together, in bytes; the program is killed when it writes more. */
  outputCapBytes: number;
  /** `auto`: under bubblewrap where it works, else unsandboxed; `off`: always unsandboxed. */
  sandbox: 'auto' | 'off';
  /** Paths the sandboxed program may read even where `hidePaths` or the private /tmp would hide them (e.g. the project's folder). */
  readPaths?: readonly string[];
  /** Paths hidden inside the sandbox (the app's private files: settings, keys). Unsandboxed runs cannot hide anything. */
  hidePaths?: readonly string[];
  progress?(fraction: number, message: string): void;
}

export interface CommandResult {
  /** Exit 0, not killed. Only then does `workDir` still exist. */
  ok: boolean;
  /** How it ended: by itself (`exit`, `signal`), or killed for the time limit or the output cap. */
  ended: 'exit' | 'signal' | 'timeout' | 'output_cap';
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The output cap was reached: the text stops there and the program was killed. */
  truncated: boolean;
  sandboxed: boolean;
  /** Why it ran unsandboxed (`sandbox: 'off'`, or the probe's reason). */
  sandboxNote?: string;
  /** The run's folder (removed unless `ok`). */
  workDir: string;
  /** The program and argv that ran (after substitution), for the audit. */
  command: string[];
  /** Absolute paths of the declared outputs present after a success (regular files or folders, never links). */
  files: string[];
  durationMs: number;
}

/** The environment every plugin command gets: nothing of the app's (no keys, no proxies). */
export function commandEnvironment(workDir: string): Record<string, string> {
  return { PATH: SAFE_PATH, HOME: workDir, LANG: 'C.UTF-8', TMPDIR: workDir, GDAL_PAM_ENABLED: 'NO' };
}

/**
 * Static checks of a declaration (the manager's first phase; nothing runs): the template
 * parses and names only `declaredParams`, the outputs are plain file names, the program
 * resolves. Returns the program's absolute path; throws `ArgvTemplateError`, `ProgramError`
 * or `Error` naming the culprit.
 */
export function validateCommandSpec(spec: CommandSpec, declaredParams?: readonly string[]): string {
  validateArgvTemplate(spec.argv, declaredParams);
  for (const name of spec.outputs ?? []) checkOutputName(name);
  return resolveProgram(spec.program, spec.pluginDir);
}

/**
 * Runs one call. Refusals (template, argument, program) throw `ToolFailure` before anything
 * runs (`invalid_params` for the call's arguments, `not_allowed` for a program outside the
 * plugin folder, `handler_error` otherwise); an abort kills the process group, removes the
 * run's folder and throws `ToolFailure('cancelled')`. Every other outcome is a result
 * (`commandFailure` turns a failed one into the error to report).
 */
export async function runCommand(spec: CommandSpec, args: Readonly<Record<string, unknown>>, ctx: CommandContext): Promise<CommandResult> {
  const { program, argv } = prepare(spec, args);
  if (ctx.signal.aborted) throw new ToolFailure('cancelled', 'The command was stopped before it started.');

  const support = ctx.sandbox === 'off' ? null : await sandboxSupport();
  const sandboxed = support?.available === true;
  const sandboxNote = support === null ? 'sandbox turned off' : support.available ? undefined : support.reason;
  if (ctx.signal.aborted) throw new ToolFailure('cancelled', 'The command was stopped before it started.');

  mkdirSync(ctx.outputsDir, { recursive: true });
  const workDir = realpathSync(mkdtempSync(join(ctx.outputsDir, `${folderLabel(ctx.label)}-`)));
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });

  const [file, fileArgs] =
    support?.available === true
      ? [
          support.bwrap,
          sandboxArgs(
            { workDir, readPaths: [...realPaths(ctx.readPaths), ...realPaths([spec.pluginDir])], hidePaths: realPaths(ctx.hidePaths) },
            program,
            argv,
          ),
        ]
      : [program, argv];

  ctx.progress?.(0, `Running ${basename(program)}${sandboxed ? '' : ' (unsandboxed)'}`);
  const started = performance.now();
  let run: Finished;
  try {
    run = await supervise(file, fileArgs, workDir, ctx, basename(program));
  } catch (err) {
    removeWorkDir();
    throw new ToolFailure('handler_error', `${basename(program)} could not start: ${(err as Error).message}`);
  }
  const durationMs = Math.round(performance.now() - started);
  if (run.ended === 'abort') {
    removeWorkDir();
    throw new ToolFailure('cancelled', `${basename(program)} was stopped.`);
  }
  const ok = run.ended === 'exit' && run.exitCode === 0;
  if (!ok) removeWorkDir();
  else ctx.progress?.(1, `${basename(program)} finished`);
  const files = ok ? (spec.outputs ?? []).map((n) => join(workDir, n)).filter(isOutput) : [];
  return {
    ok,
    ended: run.ended,
    exitCode: run.exitCode,
    signal: run.signal,
    stdout: run.stdout,
    stderr: run.stderr,
    truncated: run.truncated,
    sandboxed,
    ...(sandboxNote ? { sandboxNote } : {}),
    workDir,
    command: [program, ...argv],
    files,
    durationMs,
  };
}

/** The error to report for a run that did not succeed, or null when it did. */
export function commandFailure(result: CommandResult): ToolFailure | null {
  if (result.ok) return null;
  const name = basename(result.command[0] ?? 'command');
  const tail = lastLines(result.stderr || result.stdout);
  const detail = tail ? `\n${tail}` : '';
  switch (result.ended) {
    case 'timeout':
      return new ToolFailure('timeout', `${name} took too long and was stopped.${detail}`, false);
    case 'output_cap':
      return new ToolFailure('handler_error', `${name} wrote more output than allowed and was stopped.${detail}`, false);
    case 'signal':
      return new ToolFailure('handler_error', `${name} was killed by ${result.signal}.${detail}`, false);
    default:
      return new ToolFailure('handler_error', `${name} failed with exit code ${result.exitCode}.${detail}`, false);
  }
}

function prepare(spec: CommandSpec, args: Readonly<Record<string, unknown>>): { program: string; argv: string[] } {
  let program: string;
  try {
    for (const name of spec.outputs ?? []) checkOutputName(name);
    program = resolveProgram(spec.program, spec.pluginDir);
  } catch (err) {
    const code = err instanceof ProgramError && err.reason === 'outside' ? 'not_allowed' : 'handler_error';
    throw new ToolFailure(code, (err as Error).message);
  }
  try {
    return { program, argv: expandArgv(spec.argv, args) };
  } catch (err) {
    if (err instanceof ArgvTemplateError) throw new ToolFailure('invalid_params', err.message);
    throw err;
  }
}

function checkOutputName(name: string): void {
  if (!name || name === '.' || name === '..' || /[/\\\0]/.test(name))
    throw new Error(`Output '${name}' must be a plain file name in the run's folder (no slashes).`);
}

function isOutput(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isFile() || st.isDirectory();
  } catch {
    return false;
  }
}

function realPaths(paths: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const p of paths ?? []) {
    try {
      out.push(realpathSync(p));
    } catch {
      // a path that does not exist needs neither showing nor hiding
    }
  }
  return out;
}

function folderLabel(label: string | undefined): string {
  const clean = (label ?? '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._-]+/, '');
  return clean.slice(0, 48) || 'command';
}

function lastLines(text: string, lines = 8, chars = 1500): string {
  const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
  return tail.length > chars ? `…${tail.slice(-chars)}` : tail;
}

interface Finished {
  ended: 'exit' | 'signal' | 'timeout' | 'output_cap' | 'abort';
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
}

/** After the program exits, how long its pipes may stay open (a stray grandchild) before they are closed. */
const CLOSE_GRACE_MS = 250;

/**
 * Spawns `file` in its own process group (detached: a new session) and waits for it. The
 * time limit, the output cap and an abort kill the whole group with SIGKILL; so does the
 * program's own exit, for anything it left running in its group. Rejects only when it cannot
 * be started.
 */
function supervise(file: string, args: readonly string[], workDir: string, ctx: CommandContext, name: string): Promise<Finished> {
  return new Promise<Finished>((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: workDir,
      env: commandEnvironment(workDir),
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let used = 0;
    let truncated = false;
    let killedFor: Finished['ended'] | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    let graceTimer: NodeJS.Timeout | null = null;
    const progress = gdalProgress(ctx.progress, name);

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const stop = (why: Finished['ended']) => {
      if (killedFor || exit) return;
      killedFor = why;
      killGroup();
    };
    const take = (chunks: Buffer[], data: Buffer) => {
      if (truncated) return;
      const room = ctx.outputCapBytes - used;
      if (data.length > room) {
        chunks.push(data.subarray(0, Math.max(0, room)));
        used = ctx.outputCapBytes;
        truncated = true;
        stop('output_cap');
      } else {
        chunks.push(data);
        used += data.length;
      }
    };
    const onAbort = () => stop('abort');
    const timer = setTimeout(() => stop('timeout'), Math.max(0, ctx.timeoutMs));

    const cleanup = () => {
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      ctx.signal.removeEventListener('abort', onAbort);
    };
    const finish = () => {
      if (settled || !exit) return;
      settled = true;
      cleanup();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        ended: killedFor ?? (exit.signal ? 'signal' : 'exit'),
        exitCode: exit.code,
        signal: exit.signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        truncated,
      });
    };

    child.stdout.on('data', (d: Buffer) => {
      take(out, d);
      progress(d);
    });
    child.stderr.on('data', (d: Buffer) => take(err, d));
    child.on('error', (e) => {
      if (settled) return;
      settled = true;
      cleanup();
      killGroup();
      reject(e);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      killGroup(); // what the program left running in its group goes with it
      // The grace timer can fire in the same loop turn as output still waiting in the pipe (the
      // loop was busy: timers run before I/O is polled), which would cut the output short. One
      // more turn (setImmediate runs after the poll) reads what the program wrote first.
      graceTimer = setTimeout(() => setImmediate(finish), CLOSE_GRACE_MS);
    });
    child.on('close', finish);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    if (ctx.signal.aborted) onAbort();
  });
}

/**
 * GDAL's command-line progress (`0...10...20...` on stdout, `100 - done.`) as fractions; other
 * output is ignored. Only rising values are reported.
 */
function gdalProgress(report: CommandContext['progress'], name: string): (chunk: Buffer) => void {
  if (!report) return () => {};
  let tail = '';
  let last = 0;
  return (chunk) => {
    tail = (tail + chunk.toString('latin1')).slice(-64);
    let best = -1;
    for (const m of tail.matchAll(/(?<!\d)(\d{1,3})(?=\.\.\.| - done)/g)) best = Math.max(best, Number(m[1]));
    if (best > last && best <= 100) {
      last = best;
      report(best / 100, `${name}: ${best}%`);
    }
  };
}
