/**
 * The watchdog on its own, without GDAL: a process whose JS thread is stuck in a synchronous
 * loop (as in a synchronous GDAL call: no 'disconnect', no timers) must end once its parent is
 * killed — and not a moment before.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PARENT_POLL_MS } from './parentWatchdog.js';
import { isRunning } from './testSupport.js';

const WATCHDOG = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'parentWatchdog.ts')).href;

// The blocked process: starts the watchdog, prints its pid, then never yields (at most 60 s).
const BLOCKED = `
import { startParentWatchdog } from ${JSON.stringify(WATCHDOG)};
startParentWatchdog();
process.stdout.write(process.pid + '\\n');
const t0 = Date.now();
while (Date.now() - t0 < 60000) {}
`;
// Its parent: starts it with stdout shared, then idles until killed.
const PARENT = `
const { spawn } = require('node:child_process');
spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(BLOCKED)}], { stdio: ['ignore', 'inherit', 'inherit'] });
setInterval(() => {}, 60000);
`;

test('a process blocked in synchronous code ends within 2 s of its parent being killed, not before', async (t) => {
  const parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'inherit'] });
  let childPid: number | undefined;
  t.after(() => {
    if (parent.exitCode === null && parent.signalCode === null) parent.kill('SIGKILL');
    if (childPid !== undefined && isRunning(childPid)) process.kill(childPid, 'SIGKILL');
  });
  for await (const line of createInterface({ input: parent.stdout! })) {
    childPid = Number(line.trim());
    break;
  }
  assert.ok(childPid && Number.isInteger(childPid), 'no pid from the blocked process');

  // Several polls with the parent alive: the watchdog must leave the process be.
  await sleep(PARENT_POLL_MS * 4);
  assert.ok(isRunning(childPid), 'the watchdog killed a process whose parent is alive');

  const t0 = performance.now();
  parent.kill('SIGKILL');
  while (isRunning(childPid)) {
    const took = performance.now() - t0;
    if (took > 2000) assert.fail(`still running ${Math.round(took)} ms after its parent was killed`);
    await sleep(20);
  }
  t.diagnostic(`gone ${Math.round(performance.now() - t0)} ms after its parent's SIGKILL`);
});
