import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxArgs } from '../plugins/executors/bwrapSandbox.js';
import { commandEnvironment } from '../plugins/executors/commandExecutor.js';
import { SAFE_PATH } from '../plugins/executors/commandProgram.js';

/**
 * `code.run_python`'s process side (issue #13): which Python can run snippets here (a probe),
 * and one run of a snippet in a fresh child under bubblewrap, with a wall-time limit that
 * kills the whole process group, a memory limit (RLIMIT_AS, set by the runner script), a cap
 * on the text kept, and Stop killing it at once. The runner script is
 * `python/run_snippet.py`; it is read here and passed with `-c`, so it need not be visible
 * inside the sandbox (nor outside an asar archive).
 */

/** Where a snippet can run, or why it cannot. */
export type PythonSupport = { available: true; python: string; bwrap: string; probeMs: number } | { available: false; reason: string };

const PROBE_TIMEOUT_MS = 5000;
const IMPORT_CHECK = 'from osgeo import gdal, ogr';

let cached: PythonSupport | null = null;

/**
 * Probes once per process, synchronously (the tool list is built synchronously): bubblewrap in
 * the safe PATH, then each `python3` in the safe PATH order (/usr/local/bin, /usr/bin, /bin),
 * run *inside the sandbox a real run uses* (the user's home and the app's files hidden), and
 * the first that imports `osgeo.gdal` and `osgeo.ogr` wins. Costs ~0.1–0.3 s at start.
 */
export function pythonSupport(): PythonSupport {
  return (cached ??= probe());
}

/** Forgets the cached probe (tests). */
export function resetPythonProbe(): void {
  cached = null;
}

function probe(): PythonSupport {
  const started = performance.now();
  if (process.env.MAPWRIGHT_PLUGIN_SANDBOX === 'off')
    return { available: false, reason: 'the sandbox is turned off (MAPWRIGHT_PLUGIN_SANDBOX=off), and Python snippets run only sandboxed' };
  const runner = runnerSource();
  if (runner === null)
    return { available: false, reason: `the runner script run_snippet.py was not found (looked in ${runnerCandidates().join(', ')})` };
  const bwrap = findInSafePath('bwrap');
  if (!bwrap) return { available: false, reason: 'bubblewrap (bwrap) is not installed; Python snippets run only inside its sandbox' };
  const candidates = SAFE_PATH.split(':')
    .map((d) => join(d, 'python3'))
    .filter(isExecutableFile);
  if (!candidates.length) return { available: false, reason: `no python3 in ${SAFE_PATH}` };
  const workDir = realpathSync(mkdtempSync(join(tmpdir(), 'mapwright-pyprobe-')));
  const reasons: string[] = [];
  try {
    for (const python of candidates) {
      const args = hardened(sandboxArgs({ workDir, hidePaths: userHome(python) }, python, ['-I', '-c', IMPORT_CHECK]), 3);
      const r = spawnSync(bwrap, args, {
        cwd: workDir,
        env: commandEnvironment(workDir),
        timeout: PROBE_TIMEOUT_MS,
        stdio: ['ignore', 'ignore', 'pipe'],
        killSignal: 'SIGKILL',
      });
      if (r.status === 0) return { available: true, python, bwrap, probeMs: Math.round(performance.now() - started) };
      const err = r.error ? r.error.message : (r.stderr?.toString('utf8').trim().split('\n').pop() ?? '');
      reasons.push(`${python}: ${r.signal ? `killed by ${r.signal}` : `exit ${r.status}`}${err ? ` (${err.slice(0, 200)})` : ''}`);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return { available: false, reason: `no python3 with GDAL's bindings (osgeo) runs in the sandbox here: ${reasons.join('; ')}` };
}

/** The runner script, from the source tree (dev, tests) or beside the built main (`dist/main/python/`, when the build copies it). */
function runnerCandidates(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  return [
    join(here, 'python', 'run_snippet.py'),
    join(here, '..', '..', 'src-main', 'code', 'python', 'run_snippet.py'),
    join(process.cwd(), 'src-main', 'code', 'python', 'run_snippet.py'),
  ];
}

let runnerText: string | null | undefined;
function runnerSource(): string | null {
  if (runnerText !== undefined) return runnerText;
  for (const p of runnerCandidates()) {
    try {
      return (runnerText = readFileSync(p, 'utf8'));
    } catch {
      // next
    }
  }
  return (runnerText = null);
}

function findInSafePath(name: string): string | undefined {
  return SAFE_PATH.split(':')
    .map((d) => join(d, name))
    .find(isExecutableFile);
}

function isExecutableFile(p: string): boolean {
  try {
    return statSync(p).isFile() && (statSync(p).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Size of each tmpfs (the private /tmp, the hidden folders): room for bwrap's mount points only. */
const TMPFS_BYTES = 1 << 20;

/**
 * The plugin sandbox, tightened for snippets: every capability dropped (bwrap keeps them when
 * started by root, as in CI containers, which would let root write anywhere writable), the
 * private /tmp and the hidden folders read-only and tiny, and so are the folders bwrap makes in
 * them to reach a bound path (a snippet writes only in its run's folder, where the file-size
 * limit counts; a tmpfs would be memory outside RLIMIT_AS).
 * `argc` is how many arguments the program gets (they follow the `--` separator and the program).
 */
export function hardened(args: readonly string[], argc: number): string[] {
  const sepAt = args.length - argc - 2;
  if (args[sepAt] !== '--') throw new Error('unexpected bwrap arguments');
  const out: string[] = [];
  const tmpfsRoots: string[] = [];
  const made = new Set<string>();
  const under = (p: string, root: string) => p.startsWith(root === '/' ? '/' : root + sep) && p !== root;
  /** `--dir` (mode 0555) for every folder between the deepest tmpfs holding `dest` and `dest` itself. */
  const parentsOf = (dest: string) => {
    const root = tmpfsRoots.filter((r) => under(dest, r)).sort((a, b) => b.length - a.length)[0];
    if (!root) return;
    const parts = dest
      .slice(root.length + 1)
      .split(sep)
      .slice(0, -1);
    let dir = root;
    for (const part of parts) {
      dir = join(dir, part);
      if (made.has(dir)) continue;
      made.add(dir);
      out.push('--perms', '0555', '--dir', dir);
    }
  };
  for (let i = 0; i < sepAt;) {
    const op = args[i]!;
    const arity = BWRAP_ARITY[op];
    if (arity === undefined) throw new Error(`unexpected bwrap option ${op}`);
    const dest = arity === 2 ? args[i + 2]! : arity === 1 ? args[i + 1]! : '';
    if (MOUNT_OPS.has(op) && dest !== '/') parentsOf(dest);
    if (op === '--tmpfs') {
      out.push('--perms', '0555', '--size', String(TMPFS_BYTES));
      tmpfsRoots.push(dest);
    }
    if (MOUNT_OPS.has(op)) made.add(dest); // there already: nothing to make on the way through it
    out.push(...args.slice(i, i + 1 + arity));
    i += 1 + arity;
  }
  // The base sandbox drops every capability already (bwrapSandbox.ts); kept here so this holds on its own.
  out.push('--cap-drop', 'ALL', ...args.slice(sepAt));
  return out;
}

/** How many values each bwrap option that sandboxArgs writes takes. */
const BWRAP_ARITY: Record<string, number> = {
  '--ro-bind': 2,
  '--bind': 2,
  '--dev-bind': 2,
  '--dev': 1,
  '--proc': 1,
  '--tmpfs': 1,
  '--chdir': 1,
  '--dir': 1,
  '--remount-ro': 1,
  '--unshare-all': 0,
  '--unshare-net': 0,
  '--die-with-parent': 0,
  '--new-session': 0,
  '--cap-drop': 1,
};
const MOUNT_OPS = new Set(['--ro-bind', '--bind', '--dev-bind', '--tmpfs', '--dir']);

/** The person's home folder is hidden too (keys, mail, browsers): a snippet reads only what the project names. Not when Python itself lives there. */
function userHome(python: string): string[] {
  let home: string;
  try {
    home = realpathSync(homedir());
  } catch {
    return [];
  }
  if (home === '/' || !home) return [];
  let real = python;
  try {
    real = realpathSync(python);
  } catch {
    // keep the name
  }
  return real.startsWith(home + sep) ? [] : [home];
}

// ---------------------------------------------------------------------------------------------

/** A project layer as the snippet sees it. */
export interface SnippetLayer {
  name: string;
  source: string;
  sublayer: string | null;
  kind: 'vector' | 'raster' | 'table';
}

export interface SnippetLimits {
  wallMs: number;
  memoryMb: number;
  /** Largest file the snippet may write. */
  fileMb: number;
  /** Characters of printed text kept; the rest is counted. */
  textChars: number;
}

export const DEFAULT_LIMITS: SnippetLimits = { wallMs: 60_000, memoryMb: 2048, fileMb: 4096, textChars: 2000 };

export interface SnippetJob {
  code: string;
  layers: readonly SnippetLayer[];
  /** The project's outputs folder; the run gets a fresh folder under it (its only writable place). */
  outputsDir: string;
  /** Hidden inside the sandbox (the app's private files). */
  hidePaths: readonly string[];
  limits?: Partial<SnippetLimits>;
  signal: AbortSignal;
}

export interface SnippetOutput {
  name: string;
  kind: 'vector' | 'raster';
  path: string;
  exists: boolean;
}

/** How a run ended. `runDir` exists only after `ok` (the caller moves the outputs out and removes it). */
export type SnippetOutcome =
  | { ok: true; text: string; textLength: number; outputs: SnippetOutput[]; runDir: string; durationMs: number }
  | {
      ok: false;
      kind: 'syntax' | 'exception' | 'memory' | 'refused' | 'timeout' | 'cancelled' | 'crashed';
      message: string;
      type?: string;
      line?: number;
      column?: number;
      code?: string;
      lines?: { line: number; function: string; code: string }[];
      text: string;
      textLength: number;
      stderr: string;
      durationMs: number;
    };

/** Bytes of the child's own stdout/stderr kept (C libraries writing straight to the fds). */
const STREAM_CAP = 16_384;
/** After the child exits, how long its pipes may stay open before they are closed. */
const CLOSE_GRACE_MS = 250;

/**
 * Runs one snippet. Never throws for what the snippet does; throws only when the probe says
 * Python cannot run here. Every outcome but `ok` removes the run's folder.
 */
export async function runPythonSnippet(job: SnippetJob): Promise<SnippetOutcome> {
  const support = pythonSupport();
  if (!support.available) throw new Error(`Python snippets cannot run here: ${support.reason}`);
  const limits = { ...DEFAULT_LIMITS, ...job.limits };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const empty = { text: '', textLength: 0, stderr: '' };
  if (job.signal.aborted) return { ok: false, kind: 'cancelled', message: 'Stopped before it started.', ...empty, durationMs: 0 };

  mkdirSync(job.outputsDir, { recursive: true });
  const outputsDir = realpathSync(job.outputsDir);
  const runDir = realpathSync(mkdtempSync(join(outputsDir, 'python-run-')));
  const removeRunDir = () => rmSync(runDir, { recursive: true, force: true });

  const privateRoots = realPaths(job.hidePaths);
  const hidden = [...privateRoots, ...userHome(support.python)];
  // The person's layers are shown even in their hidden home; the app's own files never.
  const readPaths = [outputsDir, ...layerReadPaths(job.layers, privateRoots)];
  const args = hardened(sandboxArgs({ workDir: runDir, readPaths, hidePaths: hidden }, support.python, ['-I', '-c', runnerSource()!]), 3);
  const payload = JSON.stringify({
    code: job.code,
    runDir,
    layers: Object.fromEntries(job.layers.map((l) => [l.name, { source: l.source, sublayer: l.sublayer, kind: l.kind }])),
    limits: { memoryMb: limits.memoryMb, fileMb: limits.fileMb, textChars: limits.textChars },
  });

  const run = await supervise(support.bwrap, args, runDir, payload, limits.wallMs, job.signal);
  const durationMs = elapsed();
  const stderr = run.stderr;
  const parsed = parseResult(run.result);
  if (run.ended === 'abort') {
    removeRunDir();
    return { ok: false, kind: 'cancelled', message: 'Stopped; the partial output was removed.', ...texts(parsed), stderr, durationMs };
  }
  if (run.ended === 'timeout') {
    removeRunDir();
    return {
      ok: false,
      kind: 'timeout',
      message: `The snippet ran longer than ${Math.round(limits.wallMs / 1000)} s and was stopped; its partial output was removed.`,
      ...texts(parsed),
      stderr,
      durationMs,
    };
  }
  if (parsed && parsed.ok === true) {
    const outputs = checkedOutputs(parsed.outputs, runDir);
    return { ok: true, text: str(parsed.text), textLength: num(parsed.textLength) ?? 0, outputs, runDir, durationMs };
  }
  removeRunDir();
  if (parsed && parsed.ok === false) {
    const kind = (['syntax', 'exception', 'memory', 'refused'] as const).find((k) => k === parsed.kind) ?? 'exception';
    return {
      ok: false,
      kind,
      message: str(parsed.message),
      ...(typeof parsed.type === 'string' ? { type: parsed.type } : {}),
      ...(num(parsed.line) !== undefined ? { line: num(parsed.line)! } : {}),
      ...(num(parsed.column) !== undefined ? { column: num(parsed.column)! } : {}),
      ...(typeof parsed.code === 'string' ? { code: parsed.code } : {}),
      ...(Array.isArray(parsed.lines) ? { lines: frames(parsed.lines) } : {}),
      ...texts(parsed),
      stderr,
      durationMs,
    };
  }
  // No result: the process died (a crash in native code, the kernel's OOM killer, exit()).
  const memoryHint = /MemoryError|Cannot allocate memory|out of memory/i.test(stderr);
  return {
    ok: false,
    kind: memoryHint ? 'memory' : 'crashed',
    message: memoryHint
      ? `The snippet ran out of its ${limits.memoryMb} MB of memory.`
      : `Python ended without a result (${run.signal ? `killed by ${run.signal}` : `exit code ${run.exitCode}`}).`,
    text: '',
    textLength: 0,
    stderr,
    durationMs,
  };
}

type Raw = Record<string, unknown>;

function parseResult(line: string): Raw | null {
  const first = line.split('\n').find((l) => l.trim());
  if (!first) return null;
  try {
    const v = JSON.parse(first) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : null;
  } catch {
    return null;
  }
}

function texts(parsed: Raw | null): { text: string; textLength: number } {
  return { text: str(parsed?.text), textLength: num(parsed?.textLength) ?? 0 };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function frames(list: unknown[]): { line: number; function: string; code: string }[] {
  return list
    .filter((f): f is Raw => !!f && typeof f === 'object')
    .map((f) => ({ line: num(f.line) ?? 0, function: str(f.function), code: str(f.code) }))
    .slice(-20);
}

/** Outputs the runner reports, believed only for plain files directly in the run's folder. */
function checkedOutputs(list: unknown, runDir: string): SnippetOutput[] {
  if (!Array.isArray(list)) return [];
  const out: SnippetOutput[] = [];
  for (const item of list as Raw[]) {
    const path = str(item?.path);
    const name = str(item?.name);
    const kind = item?.kind === 'raster' ? 'raster' : 'vector';
    const ext = kind === 'raster' ? '.tif' : '.gpkg';
    if (dirname(path) !== runDir || basename(path) !== `${name}${ext}` || extname(path) !== ext) continue;
    let exists = false;
    try {
      exists = lstatSync(path).isFile();
    } catch {
      exists = false;
    }
    out.push({ name, kind, path, exists });
  }
  return out;
}

/**
 * What the sandbox shows read-only: each layer's folder, or, where that folder is in (or holds)
 * one of the app's private paths, only the layer's own files (the source and its same-named
 * companions: .shp/.dbf/.shx/.prj, .tif/.aux.xml/.ovr).
 */
function layerReadPaths(layers: readonly SnippetLayer[], hidden: readonly string[]): string[] {
  // `hidden`: the app's private roots (a layer there is never shown).
  const within = (p: string, root: string) => p === root || p.startsWith(root + sep);
  const out = new Set<string>();
  for (const layer of layers) {
    let source: string;
    try {
      source = realpathSync(layer.source);
    } catch {
      continue; // gone: the snippet's open fails with GDAL's message
    }
    const folder = dirname(source);
    const clashes = hidden.some((h) => within(folder, h) || within(h, folder));
    if (!clashes) {
      out.add(folder);
      continue;
    }
    if (hidden.some((h) => within(source, h))) continue; // a private file is never shown
    out.add(source);
    const stem = basename(source, extname(source));
    try {
      for (const f of readdirSync(folder)) if (f !== basename(source) && f.startsWith(`${stem}.`)) out.add(join(folder, f));
    } catch {
      // the source alone
    }
  }
  return [...out];
}

function realPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    try {
      out.push(realpathSync(p));
    } catch {
      // nothing there to hide
    }
  }
  return out;
}

interface Supervised {
  ended: 'exit' | 'timeout' | 'abort';
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  result: string;
  stderr: string;
}

/**
 * Spawns bwrap in its own process group (detached), writes the job to stdin, reads the result
 * from fd 3; the time limit and an abort kill the whole group with SIGKILL at once.
 */
function supervise(file: string, args: string[], cwd: string, payload: string, wallMs: number, signal: AbortSignal): Promise<Supervised> {
  return new Promise<Supervised>((resolve) => {
    const child = spawn(file, args, {
      cwd,
      env: { ...commandEnvironment(cwd), PYTHONDONTWRITEBYTECODE: '1' },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    const result: Buffer[] = [];
    let resultBytes = 0;
    let stderr = '';
    let killedFor: Supervised['ended'] | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    let grace: NodeJS.Timeout | null = null;

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    };
    const stop = (why: 'timeout' | 'abort') => {
      if (killedFor || exit) return;
      killedFor = why;
      killGroup();
    };
    const onAbort = () => stop('abort');
    const timer = setTimeout(() => stop('timeout'), Math.max(0, wallMs));
    const fd3 = child.stdio[3] as NodeJS.ReadableStream | null;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      (fd3 as unknown as { destroy?: () => void } | null)?.destroy?.();
      resolve({
        ended: killedFor ?? 'exit',
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        result: Buffer.concat(result).toString('utf8'),
        stderr: stderr.slice(-STREAM_CAP),
      });
    };

    fd3?.on('data', (d: Buffer) => {
      if (resultBytes < 4 * 1024 * 1024) result.push(d);
      resultBytes += d.length;
    });
    // The snippet's text is captured in Python; what reaches the real fds is C libraries' chatter.
    child.stdout?.on('data', (d: Buffer) => {
      if (stderr.length < STREAM_CAP) stderr += d.toString('utf8');
    });
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < STREAM_CAP * 2) stderr += d.toString('utf8');
    });
    child.stdin?.on('error', () => {}); // a snippet that never reads, or a child killed early
    child.stdin?.end(payload);
    child.on('error', (e) => {
      stderr += `could not start: ${e.message}`;
      exit = { code: null, signal: null };
      finish();
    });
    child.on('exit', (code, sig) => {
      exit = { code, signal: sig };
      killGroup(); // what it left running goes with it
      grace = setTimeout(finish, CLOSE_GRACE_MS);
    });
    child.on('close', finish);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
  });
}
