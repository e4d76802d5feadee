import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { NewAuditEntry } from '../store/auditRepo.js';
import { createFileHandlers } from './fileHandlers.js';
import { createRecentFiles } from './recentFiles.js';

describe('file handlers: tokens stand for main’s own paths', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mw-files-')));
  mkdirSync(join(root, 'd'));
  writeFileSync(join(root, 'd', 'a.gpkg'), '');
  writeFileSync(join(root, 'd', 'b.gpkg'), '');
  after(() => rmSync(root, { recursive: true, force: true }));
  const values = new Map<string, unknown>();
  const recent = createRecentFiles({ get: <T>(k: string) => (values.get(k) as T) ?? null, set: (k, v) => void values.set(k, v) });
  const ran: { entry: string; params: Record<string, unknown> }[] = [];
  const files = createFileHandlers({
    isPrivate: () => false,
    recent,
    outputsDir: () => join(root, 'outputs'),
    runForPerson: async (entry, params) => {
      ran.push({ entry, params });
      return { ok: true, data: {} };
    },
    env: { MAPWRIGHT_BROWSE_ROOT: root },
  });

  it('loads exactly the listed file of a token; a made-up token or a path in its place runs nothing', async () => {
    const listing = await files.handlers['files/list']({ dir: join(root, 'd') });
    const a = listing.entries.find((e) => e.name === 'a.gpkg')!;
    await files.handlers['files/load']({ token: a.token! });
    assert.deepEqual(ran, [{ entry: 'layers.load', params: { path: join(root, 'd', 'a.gpkg') } }]);
    for (const token of ['not-a-token-at-all', join(root, 'd', 'b.gpkg')]) {
      const r = await files.handlers['files/load']({ token });
      assert.equal(r.ok, false);
    }
    assert.equal(ran.length, 1);
  });

  it('the web host has no open dialog', async () => {
    assert.deepEqual(await files.handlers['files/choose']({}), { available: false, files: [] });
  });

  it('a successful layers.load, by anyone, becomes a recent file with its own token', async () => {
    const entry = { toolId: 'layers.load', outcome: 'ok', args: { path: join(root, 'd', 'b.gpkg') } } as NewAuditEntry;
    files.noteAudited(entry);
    files.noteAudited({ ...entry, outcome: 'error', args: { path: '/x/failed.gpkg' } });
    files.noteAudited({ ...entry, toolId: 'layers.remove', args: { path: '/x/other.gpkg' } });
    const { files: list } = await files.handlers['files/recent']({});
    assert.deepEqual(
      list.map((f) => f.path),
      [join(root, 'd', 'b.gpkg')],
    );
    await files.handlers['files/load']({ token: list[0]!.token });
    assert.deepEqual(ran.at(-1), { entry: 'layers.load', params: { path: join(root, 'd', 'b.gpkg') } });
  });
});
