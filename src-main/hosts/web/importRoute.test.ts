import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MethodHandlers } from '../../../src-shared/bridge/contract.js';
import type { Services } from '../../composition/services.js';
import { ImportUploads } from '../../files/importUploads.js';
import { startWebServer, type WebHost } from './webServer.js';

/** The web host's upload route for dropped files (issue #15): token, Origin, size cap, batches. */
describe('web host POST /import', () => {
  const outputs = mkdtempSync(join(tmpdir(), 'mw-import-route-'));
  const stored: string[] = [];
  let host: WebHost;
  let base: URL;

  before(async () => {
    const uploads = new ImportUploads(() => outputs, 1024);
    const services: Services = {
      handlers: {} as MethodHandlers,
      invoke: () => Promise.reject(new Error('not stubbed')),
      serveData: async () => ({ status: 404, contentType: 'text/plain', body: '' }),
      runForPerson: () => Promise.reject(new Error('not stubbed')),
      async importFile(req) {
        const s = await uploads.store(req);
        stored.push(s.path);
        return { batch: s.batch, name: s.path.split('/').pop()!, token: `token-${stored.length}` };
      },
      connect: () => () => {},
      close: async () => {},
    };
    host = await startWebServer({ services: async () => services, rendererDir: outputs, port: 0 });
    base = new URL(host.url);
  });
  after(async () => {
    await host?.close();
    rmSync(outputs, { recursive: true, force: true });
  });

  const post = (query: Record<string, string>, body: string, headers: Record<string, string> = {}) => {
    const url = new URL('/import', base);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream', ...headers } });
  };
  const token = () => base.searchParams.get('token')!;

  it('stores the files of one drop together and answers their tokens', async () => {
    const first = await post({ token: token(), name: 'scot.shp' }, 'shp-bytes');
    assert.equal(first.status, 200);
    const a = (await first.json()) as { batch: string; token: string };
    const second = await post({ token: token(), name: 'scot.dbf', batch: a.batch }, 'dbf');
    assert.equal(second.status, 200);
    assert.equal(readFileSync(stored[0]!, 'utf8'), 'shp-bytes');
    assert.equal(stored[1], join(stored[0]!, '..', 'scot.dbf'));
  });

  it('refuses without the token, from another origin, over the cap and into an unknown batch', async () => {
    const before = stored.length;
    assert.equal((await post({ name: 'a.gpkg' }, 'x')).status, 403);
    assert.equal((await post({ token: 'wrong', name: 'a.gpkg' }, 'x')).status, 403);
    assert.equal((await post({ token: token(), name: 'a.gpkg' }, 'x', { origin: 'http://evil.example' })).status, 403);
    assert.equal((await post({ token: token(), name: 'a.gpkg', batch: '../../etc' }, 'x')).status, 404);
    assert.equal((await post({ token: token() }, 'x')).status, 400);
    const big = await post({ token: token(), name: 'big.tif' }, 'x'.repeat(4096));
    assert.equal(big.status, 413);
    assert.match(((await big.json()) as { error: string }).error, /larger than/);
    assert.equal(stored.length, before);
  });
});
