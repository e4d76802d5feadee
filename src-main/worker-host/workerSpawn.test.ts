import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeWorkerSpawn } from './workerSpawn.js';

describe('worker set-up', () => {
  it('gives the worker a private folder, a closed gate by default, and removes folders of dead main processes', () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const orphan = join(tmpdir(), `mapwright-worker-${dead}-orphan`);
    mkdirSync(orphan, { recursive: true });
    const spawn = makeWorkerSpawn();
    try {
      assert.ok(!existsSync(orphan), 'the folder of a dead main process is removed');
      assert.equal(statSync(spawn.cwd).mode & 0o777, 0o700);
      assert.equal(spawn.env.CPL_TMPDIR, spawn.cwd);
      assert.equal(spawn.env.GDAL_HTTP_PROXY, '127.0.0.1:9', 'no gate: a closed port');
      assert.equal(spawn.env.NO_PROXY, undefined);
    } finally {
      spawn.dispose();
    }
    assert.ok(!existsSync(spawn.cwd));
  });
});
