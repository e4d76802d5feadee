/**
 * The worker's dead-man switch: a tiny `worker_threads` thread that checks a few times a
 * second whether main is still alive and, once it is not, kills this whole process.
 *
 * Why a thread: the IPC 'disconnect' event needs this process's JS thread, which a synchronous
 * GDAL call blocks for as long as it runs; and even when the JS thread is free, `process.exit`
 * runs gdal-async's at-exit clean-up, which waits for every dataset an asynchronous job (a
 * warp, say) still holds — so an orphan would go on at full CPU until the job ends. The thread
 * has its own event loop, so it runs whatever the JS thread is doing, and it ends the process
 * with SIGKILL (a `process.exit` in a worker thread would only end the thread).
 *
 * Parent death is seen two ways, so it works under `child_process.fork` and Electron's
 * `utilityProcess` alike: `process.ppid` changes (POSIX re-parents an orphan to init or a
 * subreaper) or the original parent no longer exists (`kill(ppid, 0)` fails with ESRCH —
 * the only sign on Windows, where a pid's parent never changes). EPERM means "exists".
 */
import { SHARE_ENV, Worker } from 'node:worker_threads';

/** How often the thread looks; a dead parent is noticed within this (plus the kill). */
export const PARENT_POLL_MS = 250;

export interface ParentWatchdogData {
  /** The parent's pid when this process started. */
  ppid: number;
  intervalMs: number;
}

/**
 * The thread's source (plain CommonJS, evaluated with `eval: true`: no file to find beside a
 * bundle, no TypeScript loader in the thread). It prints one line to stderr, then SIGKILLs.
 */
export const PARENT_WATCHDOG_SOURCE = `
'use strict';
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { ppid, intervalMs } = workerData;
function parentGone() {
  if (process.ppid !== ppid) return true;
  try {
    process.kill(ppid, 0);
    return false;
  } catch (err) {
    return err && err.code === 'ESRCH';
  }
}
setInterval(() => {
  if (!parentGone()) return;
  try {
    writeSync(2, '[gis-worker] main (pid ' + ppid + ') is gone; the worker ends itself\\n');
  } catch {}
  process.kill(process.pid, 'SIGKILL');
}, intervalMs);
`;

/**
 * Starts the watchdog for the current parent. The thread is unref'd (it never keeps the
 * process alive) and gets no execArgv (no `--import tsx` in it). Returns undefined, after
 * saying why on stderr, if a thread cannot be started; the 'disconnect' path remains.
 */
export function startParentWatchdog(intervalMs: number = PARENT_POLL_MS): Worker | undefined {
  const data: ParentWatchdogData = { ppid: process.ppid, intervalMs };
  try {
    const thread = new Worker(PARENT_WATCHDOG_SOURCE, {
      eval: true,
      workerData: data,
      execArgv: [],
      env: SHARE_ENV,
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    thread.unref();
    thread.on('error', (err) => console.error('[gis-worker] parent watchdog failed:', err));
    return thread;
  } catch (err) {
    console.error('[gis-worker] cannot start the parent watchdog:', err);
    return undefined;
  }
}
