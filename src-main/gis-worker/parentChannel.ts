/**
 * The worker's line to main. Under `child_process.fork` that is `process.send` /
 * `process.on('message')`; under Electron's `utilityProcess` it is `process.parentPort`
 * (messages wrapped in `{ data }`). The worker entry is the same file for both.
 */
import { startParentWatchdog } from './parentWatchdog.js';

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

export function sendToParent(message: unknown): void {
  if (parentPort) parentPort.postMessage(message);
  // Main may already be gone (it killed us); there is nobody left to tell.
  else if (process.connected) process.send?.(message);
}

export function onParentMessage(listener: (message: unknown) => void): void {
  if (parentPort) parentPort.on('message', (event) => listener(event.data));
  else process.on('message', listener);
}

/**
 * Without main there is no one to answer to; do not linger as an orphan holding files open
 * and burning CPU. Under fork, 'disconnect' ends an idle worker at once. It cannot end a busy
 * one: a synchronous GDAL call blocks the JS thread, and `process.exit` waits in gdal-async's
 * at-exit clean-up for a running asynchronous job. So a watchdog thread (parentWatchdog.ts)
 * also ends the process within ~250 ms of main's death, under fork and utilityProcess alike
 * (Electron ends a utility process on an orderly quit; a killed main is not guaranteed to).
 */
export function exitWithParent(): void {
  if (!parentPort) process.on('disconnect', () => process.exit(0));
  startParentWatchdog();
}
