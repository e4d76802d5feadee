/**
 * A stand-in for main, for `workerOrphan.test.ts`: starts the real GIS worker the way the web
 * host does (`forkLauncher`), optionally makes it busy, prints one JSON line
 * `{ workerPid, workerDir }` on stdout and then waits to be killed. Not a test file itself.
 *
 *   node --import tsx src-main/worker-host/workerOrphan.harness.ts idle|busy OUTPUT_DIR
 *
 * `busy`: a resample of elev.tif to ~40 000 × 37 500 pixels (minutes of GDAL warping, as
 * the e2e Stop test does); the line is printed at its first progress, when GDAL is at work.
 */
import path from 'node:path';
import { fixture, startWorker } from '../gis-worker/testSupport.js';
import { makeWorkerSpawn } from './workerSpawn.js';

const [mode, outputDir] = process.argv.slice(2);
if ((mode !== 'idle' && mode !== 'busy') || !outputDir) {
  process.stderr.write('usage: workerOrphan.harness.ts idle|busy OUTPUT_DIR\n');
  process.exit(2);
}

const spawn = makeWorkerSpawn();
const client = startWorker({ spawn });
let reported = false;

function report(): void {
  if (reported) return;
  reported = true;
  process.stdout.write(`${JSON.stringify({ workerPid: client.workerPid, workerDir: spawn.cwd })}\n`);
}

function fail(err: unknown): void {
  process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`);
  client.dispose();
  process.exit(1);
}

if (mode === 'idle') {
  client.call('layers.describe', { source: fixture('elev.tif') }).then(report, fail);
} else {
  client
    .call(
      'processing.run',
      {
        algorithm: 'resample',
        params: { input: fixture('elev.tif'), resolution: 0.00002, method: 'bilinear' },
        output: path.join(outputDir, 'huge.tif'),
      },
      { onProgress: report },
    )
    .then(() => fail(new Error('the resample finished before the harness was killed')), fail);
}

// Stay up until killed (the test SIGKILLs this process).
setInterval(() => {}, 60_000);
