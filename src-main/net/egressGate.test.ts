import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fixture, skipReason, startWorker } from '../gis-worker/testSupport.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { makeWorkerSpawn } from '../worker-host/workerSpawn.js';
import { startCanaryServer, type CanaryServer } from '../../e2e/support/canaryServer.js';
import { EgressGate } from './egressGate.js';
import { readFileSync } from 'node:fs';

describe('egress gate: GDAL reaches only what the running call was approved for', { skip: skipReason }, () => {
  let canary: CanaryServer;
  let gate: EgressGate;
  let strict: EgressGate;
  let client: GisWorkerClient;
  before(async () => {
    canary = await startCanaryServer(readFileSync(fixture('ne_110m_admin_0_countries.json')));
    gate = await EgressGate.start({ allowedOrigins: new Set([canary.origin]) });
    strict = await EgressGate.start();
    client = startWorker({ spawn: makeWorkerSpawn({ egressEnv: gate.workerEnv() }) });
  });
  after(async () => {
    client.dispose();
    await gate.close();
    await strict.close();
    await canary.close();
  });

  it('refuses every request while no approved call uses the origin, in any spelling', async () => {
    const port = new URL(canary.origin).port;
    for (const source of [
      `/vsicurl/${canary.origin}/a.geojson`,
      `/vsicurl/http://localhost:${port}/b.geojson`,
      `/vsicurl/http://2130706433:${port}/c.geojson`,
    ]) {
      await assert.rejects(client.call('layers.describe', { source }));
    }
    assert.equal(canary.connections(), 0);
    assert.ok(gate.recent().length >= 3 && gate.recent().every((e) => !e.allowed));
  });

  it('lets the approved origin through while the call runs, and closes it after', async () => {
    const close = gate.openFor([canary.origin]);
    const info = await client.call('layers.describe', { source: `/vsicurl/${canary.origin}/countries.geojson` });
    close();
    assert.equal(info.featureCount, 177);
    const seen = canary.hits.length;
    assert.ok(seen > 0);
    await assert.rejects(client.call('layers.describe', { source: `/vsicurl/${canary.origin}/countries.geojson?again` }));
    assert.equal(canary.hits.length, seen, 'nothing after the call ended');
  });

  it('answers only the worker: a request without the secret gets 407', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: gate.port, path: `${canary.origin}/countries.geojson`, headers: { host: new URL(canary.origin).host } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 407);
  });

  it('keeps the SSRF rules for approved origins: loopback is refused unless the person allowed it', async () => {
    const close = strict.openFor([`https://${new URL(canary.origin).host}`]);
    const auth = `Basic ${Buffer.from(strict.workerEnv().GDAL_HTTP_PROXYUSERPWD!).toString('base64')}`;
    const before = canary.connections();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(strict.port, '127.0.0.1', () =>
        socket.write(`CONNECT ${new URL(canary.origin).host} HTTP/1.1\r\nProxy-Authorization: ${auth}\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    close();
    assert.match(answer, /^HTTP\/1\.1 403/);
    assert.equal(canary.connections(), before);
    assert.match(strict.recent()[0]!.reason, /loopback/);
  });
});

describe('egress gate: an HTTPS tunnel ends with the approval', () => {
  it('cuts a kept-alive CONNECT tunnel when its origin closes', async () => {
    const upstream = createServer((socket) => socket.on('data', (d) => socket.write(d)));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    const host = `127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const gate = await EgressGate.start({ allowedOrigins: new Set([`https://${host}`]) });
    try {
      const close = gate.openFor([`https://${host}`]);
      const auth = `Basic ${Buffer.from(gate.workerEnv().GDAL_HTTP_PROXYUSERPWD!).toString('base64')}`;
      const socket = connect(gate.port, '127.0.0.1', () =>
        socket.write(`CONNECT ${host} HTTP/1.1\r\nProxy-Authorization: ${auth}\r\n\r\n`),
      );
      const established = await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
      assert.match(established, /^HTTP\/1\.1 200/);
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => undefined);
      close();
      await closed;
      assert.ok(socket.destroyed);
    } finally {
      await gate.close();
      await new Promise<void>((r) => upstream.close(() => r()));
    }
  });
});
