/**
 * No orphans: when main is killed hard (SIGKILL — no 'exit' handlers, no dispose), its GIS
 * worker must end within 2 s, idle or in the middle of a long GDAL job. A stand-in main
 * (`workerOrphan.harness.ts`) forks the real worker; this test kills the stand-in and watches
 * the worker's pid.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRunning, makeTempDir, REPO_ROOT, skipReason } from '../gis-worker/testSupport.js';

const HARNESS = path.join(REPO_ROOT, 'src-main', 'worker-host', 'workerOrphan.harness.ts');
const DEADLINE_MS = 2000;

/** Starts the stand-in main and waits for its `{ workerPid, workerDir }` line. */
async function startHarness(t: TestContext, mode: 'idle' | 'busy', outputDir: string): Promise<{ main: ChildProcess; workerPid: number }> {
  const main = spawn(process.execPath, ['--import', 'tsx', HARNESS, mode, outputDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let workerPid: number | undefined;
  let workerDir: string | undefined;
  t.after(() => {
    // Whatever happened, leave nothing running and nothing behind.
    if (main.exitCode === null && main.signalCode === null) main.kill('SIGKILL');
    if (workerPid !== undefined && isRunning(workerPid)) process.kill(workerPid, 'SIGKILL');
    if (workerDir) rmSync(workerDir, { recursive: true, force: true });
  });

  const lines = createInterface({ input: main.stdout! });
  const timeout = setTimeout(() => main.kill('SIGKILL'), 60_000);
  try {
    for await (const line of lines) {
      if (!line.startsWith('{')) continue;
      const report = JSON.parse(line) as { workerPid?: number; workerDir?: string; error?: string };
      if (report.error) assert.fail(`the stand-in main failed: ${report.error}`);
      workerPid = report.workerPid;
      workerDir = report.workerDir;
      break;
    }
  } finally {
    clearTimeout(timeout);
  }
  assert.ok(workerPid, 'the stand-in main reported no worker pid');
  return { main, workerPid };
}

/** SIGKILLs the stand-in main; resolves with how long its worker took to die, or fails. */
async function killMainAndTimeWorker(t: TestContext, main: ChildProcess, workerPid: number): Promise<number> {
  assert.ok(isRunning(workerPid), 'the worker is up before main is killed');
  const mainGone = new Promise((resolve) => main.once('exit', resolve));
  const t0 = performance.now();
  main.kill('SIGKILL');
  await mainGone;
  while (isRunning(workerPid)) {
    const took = performance.now() - t0;
    if (took > DEADLINE_MS) assert.fail(`the worker (pid ${workerPid}) is still running ${Math.round(took)} ms after main was killed`);
    await sleep(20);
  }
  const took = Math.round(performance.now() - t0);
  t.diagnostic(`worker gone ${took} ms after main's SIGKILL`);
  return took;
}

describe('GIS worker after main is killed', { skip: skipReason }, () => {
  test('an idle worker ends within 2 s', async (t) => {
    const tmp = makeTempDir('mapwright-orphan-');
    t.after(() => tmp.cleanup());
    const { main, workerPid } = await startHarness(t, 'idle', tmp.dir);
    await killMainAndTimeWorker(t, main, workerPid);
  });

  test('a worker busy in a long GDAL job ends within 2 s', async (t) => {
    const tmp = makeTempDir('mapwright-orphan-');
    t.after(() => tmp.cleanup());
    const { main, workerPid } = await startHarness(t, 'busy', tmp.dir);
    // Well into the warp: GDAL holds the dataset and the thread pool.
    await sleep(500);
    await killMainAndTimeWorker(t, main, workerPid);
  });
});
