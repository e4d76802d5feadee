import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SAFE_PATH } from './commandProgram.js';

/** Whether plugin commands can run under bubblewrap here, and why not when they cannot. */
export type SandboxSupport = { available: true; bwrap: string } | { available: false; reason: string };

/** The mounts of one sandboxed run (all absolute, already resolved through links). */
export interface SandboxMounts {
  /** The run's folder: bound read-write, and the working directory. */
  workDir: string;
  /** Shown read-only even where a masked path or the private /tmp would hide them. */
  readPaths?: readonly string[];
  /** Hidden inside the sandbox (a folder becomes an empty tmpfs, a file reads as empty). */
  hidePaths?: readonly string[];
}

const PROBE_TIMEOUT_MS = 5000;

let cached: Promise<SandboxSupport> | null = null;

/**
 * Probes bubblewrap once per process: found in the safe PATH and able to start a sandbox with
 * every option a real run uses (some containers allow user namespaces but not a new /proc).
 */
export function sandboxSupport(): Promise<SandboxSupport> {
  return (cached ??= probe());
}

/** Forgets the cached probe (tests). */
export function resetSandboxProbe(): void {
  cached = null;
}

async function probe(): Promise<SandboxSupport> {
  // For people whose bubblewrap misbehaves, and for tests of the unsandboxed path.
  if (process.env.MAPWRIGHT_PLUGIN_SANDBOX === 'off') return { available: false, reason: 'turned off (MAPWRIGHT_PLUGIN_SANDBOX=off)' };
  const bwrap = SAFE_PATH.split(':')
    .map((d) => join(d, 'bwrap'))
    .find((p) => existsSync(p));
  if (!bwrap) return { available: false, reason: 'bubblewrap (bwrap) is not installed' };
  const argv = [...baseArgs(), '--', 'true'];
  return new Promise<SandboxSupport>((resolve) => {
    let stderr = '';
    const child = spawn(bwrap, argv, { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: SAFE_PATH, LANG: 'C.UTF-8' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ available: false, reason: `bwrap could not start: ${err.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ available: true, bwrap });
      else
        resolve({
          available: false,
          reason: `bwrap does not work here (${signal ? `killed by ${signal}` : `exit ${code}`}${stderr.trim() ? `: ${stderr.trim().slice(0, 300)}` : ''})`,
        });
    });
  });
}

/**
 * Read-only root, fresh /dev, /proc and /tmp, every namespace unshared (no network), every
 * capability dropped (bwrap keeps them when started by root, as in CI containers, where root
 * could otherwise write through read-only binds' parents).
 */
function baseArgs(): string[] {
  return [
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
  ];
}

/**
 * The bwrap arguments that run `program argv` in the sandbox. Order matters: masks come after
 * the root and /tmp, the read-only exceptions after the masks, the run's folder last.
 */
export function sandboxArgs(mounts: SandboxMounts, program: string, argv: readonly string[]): string[] {
  const args = baseArgs();
  for (const p of mounts.hidePaths ?? []) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      continue; // nothing there to hide
    }
    if (isDir) args.push('--tmpfs', p);
    else args.push('--ro-bind', '/dev/null', p);
  }
  for (const p of mounts.readPaths ?? []) if (existsSync(p)) args.push('--ro-bind', p, p);
  args.push('--bind', mounts.workDir, mounts.workDir, '--chdir', mounts.workDir, '--', program, ...argv);
  return args;
}
