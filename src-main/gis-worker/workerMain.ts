/**
 * Entry of the GIS worker process: the only process that loads GDAL, so a GDAL crash on a
 * malformed file costs a restart of this process, never the app. Bad input is an answer
 * (`bad_input`), never a reason to exit.
 */
import { setDatabases } from './databases.js';
import { CancelledError, toWorkerError } from './errors.js';
import { gdal } from './gdal.js';
import { handleRequest } from './handleRequest.js';
import { exitWithParent, onParentMessage, sendToParent } from './parentChannel.js';
import { MainToWorker, type WorkerToMain } from './protocol.js';
import { RasterCache } from './rasterCache.js';
import { progressThrottle } from './progressThrottle.js';

const rasters = new RasterCache(8);
const running = new Map<number, AbortController>();

function send(message: WorkerToMain): void {
  sendToParent(message);
}

async function run(id: number, request: MainToWorker & { type: 'request' }): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  const progress = progressThrottle((fraction, message) => send({ type: 'progress', id, fraction, message }));
  try {
    const value = await handleRequest(request.request, { signal: controller.signal, progress, rasters });
    if (controller.signal.aborted) throw new CancelledError();
    send({ type: 'result', id, value });
  } catch (err) {
    const { code, message } = toWorkerError(err);
    if (code === 'internal' && !(err instanceof CancelledError)) console.error(`[gis-worker] request ${id} failed:`, err);
    send({ type: 'error', id, code, message });
  } finally {
    running.delete(id);
  }
}

function onMessage(raw: unknown): void {
  const parsed = MainToWorker.safeParse(raw);
  if (!parsed.success) {
    const id = (raw as { id?: unknown } | null)?.id;
    const message = `Malformed message to the GIS worker: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
    if (typeof id === 'number' && Number.isInteger(id)) send({ type: 'error', id, code: 'internal', message });
    else console.error(`[gis-worker] ${message}`);
    return;
  }
  const msg = parsed.data;
  if (msg.type === 'databases') {
    setDatabases(msg.databases);
    return;
  }
  if (msg.type === 'cancel') {
    // GDAL calls cannot be interrupted; the request stops at its next checkpoint and answers
    // then. If that takes too long, main kills this process (cancel = kill).
    running.get(msg.id)?.abort();
    return;
  }
  if (running.has(msg.id)) {
    send({ type: 'error', id: msg.id, code: 'internal', message: `Duplicate request id ${msg.id}` });
    return;
  }
  void run(msg.id, msg);
}

onParentMessage(onMessage);
exitWithParent();
// A stray bug outside a request must not take down every other request in flight.
process.on('uncaughtException', (err) => console.error('[gis-worker] uncaught exception:', err));
process.on('unhandledRejection', (err) => console.error('[gis-worker] unhandled rejection:', err));

send({ type: 'ready', gdalVersion: gdal.version });
