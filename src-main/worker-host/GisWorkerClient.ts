import {
  describeCall,
  invalidArguments,
  WORKER_CALLS,
  type CallParams,
  type CallResult,
  type WorkerCallName,
} from '../../src-shared/worker/workerCalls.js';
import { WorkerToMain, type DatabaseAccess, type MainToWorker, type WorkerErrorCode, type WorkerRequest } from '../gis-worker/protocol.js';
import type { WorkerChannel, WorkerLauncher, WorkerSpawn } from './launcher.js';
import { makeWorkerSpawn } from './workerSpawn.js';

/** The worker process died (or had to be killed) with this request in flight. */
export class WorkerCrashedError extends Error {
  override readonly name = 'WorkerCrashedError';
}

/** The worker answered with an error: `bad_input` (the data) or `internal` (a bug, a GDAL failure). */
export class WorkerRequestError extends Error {
  override readonly name = 'WorkerRequestError';
  constructor(
    readonly code: WorkerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface WorkerRequestOptions {
  signal?: AbortSignal;
  onProgress?(fraction: number, message: string): void;
}

export interface GisWorkerClientOptions {
  /** How long a cancelled request may take to answer before the worker is killed. */
  cancelGraceMs?: number;
  /** How long a new worker may take to say `ready`. */
  startTimeoutMs?: number;
  /** The worker's environment and folder; the default has a closed egress gate (no network at all). */
  spawn?: WorkerSpawn & { dispose?(): void };
}

interface Worker {
  channel: WorkerChannel;
  ready: boolean;
  /** Messages held until `ready`: a child may drop IPC messages sent before it listens. */
  outbox: MainToWorker[];
  gone: boolean;
  startTimer: ReturnType<typeof setTimeout> | null;
}

interface Pending {
  id: number;
  request: WorkerRequest;
  worker: Worker;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
  onProgress: WorkerRequestOptions['onProgress'];
  detach(): void;
}

/**
 * Main's side of the GIS worker: starts it lazily, matches replies to requests, validates
 * everything it receives (a half-crashed worker may send anything), and restarts the worker
 * when it dies or when a cancelled request does not stop in time (cancel = kill).
 */
export class GisWorkerClient {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  /** Cancelled requests whose worker has not answered yet. */
  private readonly cancelWaits = new Map<number, { worker: Worker; timer: ReturnType<typeof setTimeout> }>();
  private nextId = 1;
  private disposed = false;
  private version: string | null = null;
  private databases: Record<string, DatabaseAccess> = {};
  private readonly cancelGraceMs: number;
  private readonly startTimeoutMs: number;
  private readonly spawn: WorkerSpawn & { dispose?(): void };

  constructor(
    private readonly launch: WorkerLauncher,
    options: GisWorkerClientOptions = {},
  ) {
    this.cancelGraceMs = options.cancelGraceMs ?? 1000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.spawn = options.spawn ?? makeWorkerSpawn();
  }

  /** GDAL's version as reported by the running worker; null before the first start. */
  get gdalVersion(): string | null {
    return this.version;
  }

  /** The worker's process id, for diagnostics. */
  get workerPid(): number | undefined {
    return this.worker?.channel.pid;
  }

  /**
   * Calls one function of the worker contract (src-shared/worker/workerCalls.ts): the
   * parameters are checked before they are sent, the result when it arrives.
   */
  call<F extends WorkerCallName>(fn: F, args: CallParams<F>, opts: WorkerRequestOptions = {}): Promise<CallResult<F>> {
    return new Promise<CallResult<F>>((resolve, reject) => {
      if (this.disposed) return reject(new Error('The GIS worker has been shut down'));
      const spec = Object.hasOwn(WORKER_CALLS, fn) ? WORKER_CALLS[fn] : null;
      if (!spec) return reject(new WorkerRequestError('internal', `Unknown worker function '${String(fn)}'`));
      const checked = spec.params.safeParse(args);
      // The same words the worker would use: these values often come from the model.
      if (!checked.success) return reject(new WorkerRequestError('bad_input', invalidArguments(fn, checked.error.issues)));
      const request: WorkerRequest = { fn, args };
      const { signal } = opts;
      if (signal?.aborted) return reject(abortReason(signal));
      let worker: Worker;
      try {
        worker = this.ensureWorker();
      } catch (err) {
        return reject(new WorkerCrashedError(`The GIS worker could not be started: ${(err as Error).message}`));
      }
      const id = this.nextId++;
      const onAbort = (): void => this.abort(id, abortReason(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        id,
        request,
        worker,
        resolve: resolve as (value: unknown) => void,
        reject,
        onProgress: opts.onProgress,
        detach: () => signal?.removeEventListener('abort', onAbort),
      });
      this.post(worker, { type: 'request', id, request });
    });
  }

  /**
   * The saved PostGIS connections the worker may open (issue 16), replacing what it knew:
   * sent now, and first of all to every worker started later.
   */
  setDatabases(databases: Record<string, DatabaseAccess>): void {
    this.databases = databases;
    if (this.worker && !this.worker.gone) this.post(this.worker, { type: 'databases', databases });
  }

  /** Kills the worker; pending requests are rejected. The client cannot be used afterwards. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) this.retire(worker);
    for (const p of [...this.pending.values()]) this.fail(p, new Error('The GIS worker has been shut down'));
    // The worker is being killed; its private folder can go now (removing it does not wait for the exit).
    this.spawn.dispose?.();
  }

  /**
   * Starts the worker now rather than at the first request: loading GDAL takes a second or
   * two, which the person's first load would otherwise wait for.
   */
  warmUp(): void {
    if (!this.disposed) this.ensureWorker();
  }

  private ensureWorker(): Worker {
    this.worker ??= this.start();
    return this.worker;
  }

  private start(): Worker {
    const channel = this.launch(this.spawn);
    // A new worker knows no PostGIS connection until told (nothing to tell: nothing sent).
    const databases: MainToWorker[] = Object.keys(this.databases).length ? [{ type: 'databases', databases: this.databases }] : [];
    const worker: Worker = { channel, ready: false, outbox: databases, gone: false, startTimer: null };
    worker.startTimer = setTimeout(() => {
      this.lose(worker, `did not become ready within ${formatMs(this.startTimeoutMs)}`);
    }, this.startTimeoutMs);
    channel.onMessage((message) => this.onMessage(worker, message));
    channel.onExit((code) => this.lose(worker, code === null ? 'was killed' : `exited with code ${code}`));
    return worker;
  }

  private post(worker: Worker, message: MainToWorker): void {
    if (worker.ready) worker.channel.send(message);
    else worker.outbox.push(message);
  }

  private onMessage(worker: Worker, raw: unknown): void {
    if (worker.gone) return; // a worker we already replaced: its words no longer count
    const parsed = WorkerToMain.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      const reason = `The GIS worker sent a malformed reply: ${parsed.error.issues[0]?.message ?? 'invalid message'}`;
      if (typeof id === 'number') {
        this.clearCancelWait(id);
        const p = this.pending.get(id);
        if (p) return this.fail(p, new WorkerRequestError('internal', reason));
      }
      console.error(`[gis-worker] ${reason}`);
      return;
    }
    const msg = parsed.data;
    if (msg.type === 'ready') {
      worker.ready = true;
      this.version = msg.gdalVersion;
      if (worker.startTimer) clearTimeout(worker.startTimer);
      for (const m of worker.outbox.splice(0)) worker.channel.send(m);
      return;
    }
    if (msg.type !== 'progress') this.clearCancelWait(msg.id);
    const p = this.pending.get(msg.id);
    if (!p || p.worker !== worker) return;
    if (msg.type === 'progress') {
      try {
        p.onProgress?.(msg.fraction, msg.message);
      } catch (err) {
        console.error('[gis-worker] progress listener failed:', err);
      }
    } else if (msg.type === 'error') {
      this.fail(p, new WorkerRequestError(msg.code, msg.message));
    } else {
      const fn = p.request.fn as WorkerCallName;
      const checked = WORKER_CALLS[fn].result.safeParse(msg.value);
      if (checked.success) this.settle(p).resolve(checked.data);
      else {
        const issue = checked.error.issues[0];
        this.fail(
          p,
          new WorkerRequestError(
            'internal',
            `The GIS worker sent a malformed reply to ${fn}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
          ),
        );
      }
    }
  }

  private abort(id: number, reason: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.fail(p, reason);
    const worker = p.worker;
    const queued = worker.outbox.findIndex((m) => m.type === 'request' && m.id === id);
    if (queued >= 0) {
      worker.outbox.splice(queued, 1); // never reached the worker: nothing to stop
      return;
    }
    if (worker.gone) return;
    worker.channel.send({ type: 'cancel', id });
    const timer = setTimeout(() => {
      this.cancelWaits.delete(id);
      if (!worker.gone) this.replace(worker);
    }, this.cancelGraceMs);
    this.cancelWaits.set(id, { worker, timer });
  }

  /** Kills a worker stuck in a cancelled GDAL call; its other requests move to a fresh one. */
  private replace(worker: Worker): void {
    this.retire(worker);
    if (this.worker === worker) this.worker = null;
    const survivors = [...this.pending.values()].filter((p) => p.worker === worker);
    if (this.disposed) return;
    let fresh: Worker;
    try {
      fresh = this.ensureWorker();
    } catch (err) {
      for (const p of survivors) this.fail(p, new WorkerCrashedError(`The GIS worker could not be restarted: ${(err as Error).message}`));
      return;
    }
    for (const p of survivors) {
      p.worker = fresh;
      this.post(fresh, { type: 'request', id: p.id, request: p.request });
    }
  }

  /** The worker died (or never started): its requests fail, and a fresh worker takes over. */
  private lose(worker: Worker, how: string): void {
    if (worker.gone) return;
    const wasReady = worker.ready;
    this.retire(worker);
    if (this.worker === worker) this.worker = null;
    const restart = wasReady && !this.disposed;
    for (const p of [...this.pending.values()]) {
      if (p.worker !== worker) continue;
      const message = wasReady
        ? `The GIS worker stopped while ${describeCall(p.request.fn as WorkerCallName, p.request.args)}; it has been restarted`
        : `The GIS worker failed to start (it ${how}) while ${describeCall(p.request.fn as WorkerCallName, p.request.args)}; it will be started again with the next request`;
      this.fail(p, new WorkerCrashedError(message));
    }
    if (!wasReady) console.error(`[gis-worker] the worker failed to start: it ${how}`);
    // Only a worker that once started is restarted at once: one that cannot start would loop.
    if (restart) {
      try {
        this.ensureWorker();
      } catch (err) {
        console.error('[gis-worker] restart failed:', err);
      }
    }
  }

  private retire(worker: Worker): void {
    worker.gone = true;
    worker.outbox.length = 0;
    if (worker.startTimer) clearTimeout(worker.startTimer);
    for (const [id, wait] of this.cancelWaits) {
      if (wait.worker === worker) this.clearCancelWait(id);
    }
    worker.channel.kill();
  }

  private clearCancelWait(id: number): void {
    const wait = this.cancelWaits.get(id);
    if (!wait) return;
    clearTimeout(wait.timer);
    this.cancelWaits.delete(id);
  }

  private settle(p: Pending): Pending {
    this.pending.delete(p.id);
    p.detach();
    return p;
  }

  private fail(p: Pending, reason: unknown): void {
    this.settle(p).reject(reason);
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
