import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { WorkerRequestError, type GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { createGdalHandle } from './gdalHandle.js';

/** A worker whose every call fails with `error`, after `onCall` ran (to abort a signal, say). */
function failingWorker(error: unknown, onCall: () => void = () => {}): GisWorkerClient {
  return {
    call: async () => {
      onCall();
      throw error;
    },
  } as unknown as GisWorkerClient;
}

describe('the gdal handle: the worker contract as tools see it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mapwright-gdal-handle-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("removes the file a failed call of the contract writes (its 'writes' face)", async () => {
    const file = path.join(dir, 'half.gpkg');
    writeFileSync(file, 'half-written');
    const gdal = createGdalHandle(failingWorker(new WorkerRequestError('internal', 'GDAL failed')));
    await assert.rejects(gdal.call('processing.run', { algorithm: 'buffer', params: {}, output: `${file}|layername=half` }), /GDAL failed/);
    assert.equal(existsSync(file), false);
  });

  it('a stopped call is cancelled, and says nothing was added when it writes', async () => {
    const ac = new AbortController();
    const file = path.join(dir, 'stopped.tif');
    writeFileSync(file, 'partial');
    const gdal = createGdalHandle(failingWorker(new Error('aborted'), () => ac.abort()));
    await assert.rejects(
      gdal.call('processing.run', { algorithm: 'slope', params: {}, output: file }, { signal: ac.signal }),
      (err: unknown) => {
        assert.ok(err instanceof ToolFailure);
        assert.equal(err.code, 'cancelled');
        assert.equal(err.message, 'processing.run was stopped; nothing was added to the project.');
        return true;
      },
    );
    assert.equal(existsSync(file), false);
  });

  it("a read's bad input keeps the worker's words, with the tool's hint in place of the generic one", async () => {
    const gdal = createGdalHandle(failingWorker(new WorkerRequestError('bad_input', "no field 'POP'")));
    await assert.rejects(
      gdal.call('style.classify', { source: '/d/a.gpkg', field: 'POP', method: 'quantile', classes: 5 }),
      (err: unknown) => {
        assert.ok(err instanceof ToolFailure);
        assert.equal(err.message, "no field 'POP'");
        assert.match(err.hint ?? '', /Check the path/);
        return true;
      },
    );
    await assert.rejects(gdal.call('inspect.sql', { sql: 'SELECT 1', tables: [] }, { hint: 'Check table names' }), (err: unknown) => {
      assert.ok(err instanceof ToolFailure);
      assert.equal(err.hint, 'Check table names');
      return true;
    });
  });
});
