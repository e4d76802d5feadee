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
