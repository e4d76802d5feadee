import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { EgressGate } from '../net/egressGate.js';
import { startSourceTestServer, type SourceTestServer } from './sourceTestServers.js';

/** A GET through the gate as the worker makes it (absolute URL, the gate's secret). */
function viaGate(gate: EgressGate, url: string): Promise<number> {
  const auth = Buffer.from(gate.workerEnv().GDAL_HTTP_PROXYUSERPWD!).toString('base64');
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: gate.port, path: url, headers: { 'proxy-authorization': `Basic ${auth}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('egress gate: origins kept open for the project’s granted map sources', () => {
  let server: SourceTestServer;
  let gate: EgressGate;
  before(async () => {
    server = await startSourceTestServer();
    gate = await EgressGate.start({ allowedOrigins: new Set([server.origin]) });
  });
  after(async () => {
    await gate.close();
    await server.close();
  });

  it('lets a standing origin through outside any call, and stops as soon as it is no longer named', async () => {
    const tile = `${server.origin}/tiles/1/0/0.png`;
    assert.equal(await viaGate(gate, tile), 403);
    let standing = new Set([server.origin]);
    gate.allowPersistently(() => standing);
    assert.equal(await viaGate(gate, tile), 200);
    assert.match(gate.recent()[0]!.reason, /map source/);
    standing = new Set();
    assert.equal(await viaGate(gate, tile), 403);
    assert.equal(server.hits.length, 1);
  });

  it('fails closed when the list cannot be read, and keeps the SSRF checks for standing origins', async () => {
    gate.allowPersistently(() => {
      throw new Error('the store is closed');
    });
    assert.equal(await viaGate(gate, `${server.origin}/tiles/1/0/0.png`), 403);
    const strict = await EgressGate.start();
    try {
      strict.allowPersistently(() => new Set([server.origin, 'http://169.254.169.254:80']));
      assert.equal(await viaGate(strict, `${server.origin}/tiles/1/0/0.png`), 403, 'loopback needs the person’s allowance');
      assert.equal(await viaGate(strict, 'http://169.254.169.254/latest/meta-data/'), 403);
    } finally {
      await strict.close();
    }
  });
});
