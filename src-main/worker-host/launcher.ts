/**
 * How main starts a GIS worker: `child_process.fork` under the web host and in tests,
 * Electron's `utilityProcess` in the app. Everything above this interface is one code path.
 * Messages are structured-cloned (Uint8Array survives).
 */
export interface WorkerChannel {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process is gone, whatever the reason. */
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
  readonly pid: number | undefined;
}

/**
 * How the worker process is set up: its whole environment (the egress gate's proxy settings,
 * the drivers it may not load) and a private working folder, so nothing GDAL writes by
 * default (caches, temporary files) lands in the checkout or beside a person's data.
 */
export interface WorkerSpawn {
  env: Record<string, string>;
  cwd: string;
}

export type WorkerLauncher = (spawn: WorkerSpawn) => WorkerChannel;

/**
 * A child process's end, as both launchers report it: `finish` records the first end and tells
 * the listeners so far; a listener added after the end is called on a microtask.
 */
export interface ExitLatch {
  readonly exited: boolean;
  finish(code: number | null): void;
  onExit(listener: (code: number | null) => void): void;
}

export function exitLatch(): ExitLatch {
  const listeners: ((code: number | null) => void)[] = [];
  let exited = false;
  let exitCode: number | null = null;
  return {
    get exited() {
      return exited;
    },
    finish(code) {
      if (exited) return;
      exited = true;
      exitCode = code;
      for (const listener of listeners) listener(code);
    },
    onExit(listener) {
      if (exited) queueMicrotask(() => listener(exitCode));
      else listeners.push(listener);
    },
  };
}
