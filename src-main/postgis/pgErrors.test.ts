import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import type { PgConnectionSpec } from '../../src-shared/domain/pgConnection.js';
import { classifyPgError } from './pgErrors.js';
import { testPgConnection } from './pgTestConnection.js';

/** Failures that need no PostgreSQL: something else on the port, or nothing saying a word. */
const servers: Server[] = [];
const sockets: Socket[] = [];
after(() => {
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
});
async function listen(onSocket: (s: Socket) => void): Promise<number> {
  const server = createServer((s) => {
    sockets.push(s);
    onSocket(s);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
const spec = (port: number): PgConnectionSpec => ({
  id: 'x',
  name: 'x',
  host: '127.0.0.1',
  port,
  database: 'd',
  user: 'u',
  sslmode: 'disable',
  outputSchema: null,
});

describe('PostgreSQL failures without a server', () => {
  it('calls a peer that hangs up at once not PostgreSQL', async () => {
    const port = await listen((s) => s.destroy());
    const report = await testPgConnection(spec(port), 'pw');
    assert.equal(!report.ok && report.code, 'unreachable', JSON.stringify(report));
  });

  it('gives up on a peer that never answers after the connect time-out', async () => {
    const port = await listen(() => undefined);
    const started = Date.now();
    const report = await testPgConnection(spec(port), 'pw', { connectTimeoutMs: 500 });
    assert.equal(!report.ok && report.code, 'timeout', JSON.stringify(report));
    assert.ok(Date.now() - started < 5000);
  });

  it('never repeats the password, whatever the driver said', () => {
    const failure = classifyPgError(new Error('odd failure with hunter2 inside'), spec(1), 'hunter2');
    assert.deepEqual(failure, { ok: false, code: 'error', reason: 'odd failure with ••• inside' });
  });
});
