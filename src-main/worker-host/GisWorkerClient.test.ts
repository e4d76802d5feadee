import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testLayer } from '../../src-shared/domain/testing/testLayer.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { GisWorkerClient, type GisWorkerClientOptions, WorkerCrashedError, WorkerRequestError } from './GisWorkerClient.js';
import type { WorkerChannel, WorkerLauncher } from './launcher.js';

/** A scripted stand-in for the worker process, so every protocol path can be driven exactly. */
class FakeChannel implements WorkerChannel {
  readonly sent: Record<string, unknown>[] = [];
  killed = false;
  private readonly listeners: ((m: unknown) => void)[] = [];
  private readonly exitListeners: ((code: number | null) => void)[] = [];
  private exited = false;
  constructor(readonly pid: number) {}
  send(message: unknown): void {
    this.sent.push(message as Record<string, unknown>);
  }
  onMessage(listener: (m: unknown) => void): void {
    this.listeners.push(listener);
  }
  onExit(listener: (code: number | null) => void): void {
    this.exitListeners.push(listener);
  }
  kill(): void {
    this.killed = true;
    queueMicrotask(() => this.exit(null));
  }
  emit(message: unknown): void {
    for (const l of this.listeners) l(message);
  }
  exit(code: number | null): void {
    if (this.exited) return;
    this.exited = true;
    for (const l of this.exitListeners) l(code);
  }
  requests(): { id: number; request: { fn: string } }[] {
    return this.sent.filter((m) => m.type === 'request') as never;
  }
}

/** A client whose every launch is a fresh FakeChannel, listed in launch order. */
function scripted(options?: GisWorkerClientOptions): { client: GisWorkerClient; channels: FakeChannel[] } {
  const channels: FakeChannel[] = [];
  const launch: WorkerLauncher = () => {
    const ch = new FakeChannel(1000 + channels.length);
    channels.push(ch);
    return ch;
  };
  return { client: new GisWorkerClient(launch, options), channels };
}

/** Asserts `request` rejects with an instance of `type` whose fields equal `fields`. */
async function rejectsAs(request: Promise<unknown>, type: abstract new (...args: never[]) => Error, fields: Record<string, unknown>) {
  await assert.rejects(request, (err: unknown) => {
    assert.ok(err instanceof type, String(err));
    for (const [key, value] of Object.entries(fields)) assert.equal((err as unknown as Record<string, unknown>)[key], value, key);
    return true;
  });
}

const ready = (ch: FakeChannel): void => ch.emit({ type: 'ready', gdalVersion: '3.6.2' });
const describeArgs = { source: '/data/a.gpkg' };
const tileArgs = { source: '/data/dem.tif', z: 3, x: 1, y: 2, style: { type: 'grey', band: 1, min: null, max: null } } as const;

const layerInfo = testLayer({ info: { geometryType: 'Point', featureCount: 1, sublayers: ['a'] } }).info;

describe('GisWorkerClient (scripted worker)', () => {
  test('starts lazily, holds requests until ready, forwards progress, resolves results', async () => {
    const { client, channels } = scripted();
    assert.equal(channels.length, 0, 'no process before the first request');
    const progress: [number, string][] = [];
    const p = client.call('layers.describe', describeArgs, { onProgress: (f, m) => progress.push([f, m]) });
    const ch = channels[0]!;
    assert.equal(ch.sent.length, 0, 'nothing sent before ready');
    ready(ch);
    const { id } = ch.requests()[0]!;
    ch.emit({ type: 'progress', id, fraction: 0.5, message: 'half' });
    ch.emit({ type: 'result', id, value: layerInfo });
    assert.deepEqual(await p, layerInfo);
    assert.deepEqual(progress, [[0.5, 'half']]);
    assert.equal(client.gdalVersion, '3.6.2');
    client.dispose();
  });

  test('tile bytes arrive as Uint8Array; null means nothing to draw', async () => {
    const { client, channels } = scripted();
    const a = client.call('display.raster_tile', tileArgs);
    const b = client.call('display.raster_tile', tileArgs);
    ready(channels[0]!);
    const [ra, rb] = channels[0]!.requests();
    channels[0]!.emit({ type: 'result', id: ra!.id, value: new Uint8Array([137, 80]) });
    channels[0]!.emit({ type: 'result', id: rb!.id, value: null });
    assert.deepEqual(await a, new Uint8Array([137, 80]));
    assert.equal(await b, null);
    client.dispose();
  });

  test('worker errors carry their code', async () => {
    const { client, channels } = scripted();
    const p = client.call('layers.describe', describeArgs);
    ready(channels[0]!);
    channels[0]!.emit({ type: 'error', id: channels[0]!.requests()[0]!.id, code: 'bad_input', message: 'File not found: /data/a.gpkg' });
    await rejectsAs(p, WorkerRequestError, { code: 'bad_input', message: 'File not found: /data/a.gpkg' });
    client.dispose();
  });

  test('malformed replies fail that request, not main; garbage without an id is ignored', async () => {
    const { client, channels } = scripted();
    const bad = client.call('layers.describe', describeArgs);
    const wrongShape = client.call('layers.describe', describeArgs);
    const wrongTile = client.call('display.raster_tile', tileArgs);
    const ch = channels[0]!;
    ready(ch);
    const [r1, r2, r3] = ch.requests();
    ch.emit(null);
    ch.emit(42);
    ch.emit({ type: 'nonsense' });
    ch.emit({ type: 'error', id: r1!.id, code: 'oops', message: 'x' });
    ch.emit({ type: 'result', id: r2!.id, value: { kind: 'vector' } });
    ch.emit({ type: 'result', id: r3!.id, value: 'not bytes' });
    for (const p of [bad, wrongShape, wrongTile]) {
      await assert.rejects(
        p,
        (err: unknown) => err instanceof WorkerRequestError && err.code === 'internal' && /malformed/.test(err.message),
      );
    }
    // The same worker goes on serving.
    const ok = client.call('layers.describe', describeArgs);
    ch.emit({ type: 'result', id: ch.requests()[3]!.id, value: layerInfo });
    assert.equal((await ok).driver, 'GPKG');
    assert.equal(channels.length, 1);
    client.dispose();
  });

  test('a crash rejects every pending request with WorkerCrashedError and restarts the worker', async () => {
    const { client, channels } = scripted();
    const a = client.call('layers.describe', describeArgs);
    const b = client.call('display.raster_tile', tileArgs);
    ready(channels[0]!);
    channels[0]!.exit(139);
    await rejectsAs(a, WorkerCrashedError, { message: 'The GIS worker stopped while reading /data/a.gpkg; it has been restarted' });
    await assert.rejects(b, /stopped while drawing tile 3\/1\/2 of \/data\/dem\.tif/);
    assert.equal(channels.length, 2, 'a fresh worker was started');
    const c = client.call('layers.describe', describeArgs);
    ready(channels[1]!);
    channels[1]!.emit({ type: 'result', id: channels[1]!.requests()[0]!.id, value: layerInfo });
    assert.equal((await c).kind, 'vector');
    client.dispose();
  });

  test('a worker that dies before ready is not restarted in a loop', async () => {
    const { client, channels } = scripted();
    const p = client.call('layers.describe', describeArgs);
    channels[0]!.exit(1);
    await assert.rejects(p, (err: unknown) => err instanceof WorkerCrashedError && /failed to start/.test(err.message));
    await sleep(10);
    assert.equal(channels.length, 1);
    const again = client.call('layers.describe', describeArgs);
    assert.equal(channels.length, 2, 'the next request tries again');
    client.dispose();
    await assert.rejects(again);
  });

  test('a worker that never says ready times out', async () => {
    const { client, channels } = scripted({ startTimeoutMs: 30 });
    await assert.rejects(
      client.call('layers.describe', describeArgs),
      (err: unknown) => err instanceof WorkerCrashedError && /did not become ready within 30 ms/.test(err.message),
    );
    assert.ok(channels[0]!.killed);
    client.dispose();
  });

  test('abort rejects at once; a worker that answers the cancel is kept', async () => {
    const { client, channels } = scripted({ cancelGraceMs: 50 });
    const ch = (client.call('layers.describe', describeArgs).catch(() => undefined), channels[0]!);
    ready(ch);
    const ac = new AbortController();
    const p = client.call('display.raster_tile', tileArgs, { signal: ac.signal });
    const { id } = ch.requests()[1]!;
    const t0 = Date.now();
    ac.abort();
    await assert.rejects(p, (err: Error) => err.name === 'AbortError');
    assert.ok(Date.now() - t0 < 20);
    assert.deepEqual(ch.sent.at(-1), { type: 'cancel', id });
    ch.emit({ type: 'error', id, code: 'internal', message: 'Cancelled' });
    await sleep(80);
    assert.equal(ch.killed, false);
    assert.equal(channels.length, 1);
    client.dispose();
  });

  test('a worker stuck in a cancelled call is killed; its other requests move to a new worker', async () => {
    const { client, channels } = scripted({ cancelGraceMs: 50 });
    const ac = new AbortController();
    const stuck = client.call('layers.describe', describeArgs, { signal: ac.signal });
    const bystander = client.call('display.raster_tile', tileArgs);
    const old = channels[0]!;
    ready(old);
    ac.abort();
    await assert.rejects(stuck, (err: Error) => err.name === 'AbortError');
    await sleep(80);
    assert.ok(old.killed, 'killed after the grace period');
    assert.equal(channels.length, 2);
    const fresh = channels[1]!;
    ready(fresh);
    const moved = fresh.requests();
    assert.equal(moved.length, 1);
    assert.equal(moved[0]!.request.fn, 'display.raster_tile');
    // A late answer from the killed worker counts for nothing.
    old.emit({ type: 'result', id: moved[0]!.id, value: new Uint8Array([1]) });
    fresh.emit({ type: 'result', id: moved[0]!.id, value: new Uint8Array([2]) });
    assert.deepEqual(await bystander, new Uint8Array([2]));
    client.dispose();
  });

  test('abort before the worker is ready: never sent, nothing to cancel', async () => {
    const { client, channels } = scripted();
    const ac = new AbortController();
    const p = client.call('layers.describe', describeArgs, { signal: ac.signal });
    ac.abort(new Error('stop'));
    await assert.rejects(p, /stop/);
    ready(channels[0]!);
    assert.deepEqual(channels[0]!.sent, []);
    await assert.rejects(
      client.call('layers.describe', describeArgs, { signal: AbortSignal.abort() }),
      (err: Error) => err.name === 'AbortError',
    );
    client.dispose();
  });

  test('PostGIS connections go to the worker before any request, to a running one at once, and to a restarted one again', async () => {
    const { client, channels } = scripted();
    const access = {
      host: 'db',
      port: 5432,
      database: 'gis',
      user: 'u',
      password: 'pw',
      sslmode: 'disable',
      origin: 'postgres://db:5432/gis',
    } as const;
    client.setDatabases({ office: access });
    const p = client.call('layers.describe', describeArgs);
    ready(channels[0]!);
    const sent = channels[0]!.sent as { type: string }[];
    assert.deepEqual(
      sent.map((m) => m.type),
      ['databases', 'request'],
    );
    assert.deepEqual((sent[0] as unknown as { databases: unknown }).databases, { office: access });
    client.setDatabases({});
    assert.deepEqual(sent.at(-1), { type: 'databases', databases: {} });
    client.setDatabases({ office: access });
    channels[0]!.exit(1);
    await assert.rejects(p);
    ready(channels[1]!);
    assert.equal((channels[1]!.sent[0] as { type: string }).type, 'databases');
    client.dispose();
  });

  test('dispose kills the worker and refuses new work', async () => {
    const { client, channels } = scripted();
    const p = client.call('layers.describe', describeArgs);
    ready(channels[0]!);
    client.dispose();
    await assert.rejects(p, /shut down/);
    assert.ok(channels[0]!.killed);
    await assert.rejects(client.call('layers.describe', describeArgs), /shut down/);
    await sleep(5);
    assert.equal(channels.length, 1, 'no restart after dispose');
  });

  test('an invalid request is refused before it reaches the worker', async () => {
    const { client, channels } = scripted();
    await assert.rejects(client.call('display.raster_tile', { ...tileArgs, z: -1 }), WorkerRequestError);
    assert.equal(channels.length, 0);
    client.dispose();
  });
});
