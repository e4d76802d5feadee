import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ImportUploads, sanitiseFileName, UploadError } from './importUploads.js';

async function* bytes(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const p of parts) yield Buffer.from(p);
}

describe('uploads of dropped files', () => {
  const outputs = mkdtempSync(join(tmpdir(), 'mw-imports-'));
  after(() => rmSync(outputs, { recursive: true, force: true }));

  it('cleans names: no folders, no leading dots, no control characters', () => {
    assert.equal(sanitiseFileName('../../etc/passwd'), 'passwd');
    assert.equal(sanitiseFileName('C:\\x\\data.shp'), 'data.shp');
    assert.equal(sanitiseFileName('.bashrc'), 'bashrc');
    assert.equal(sanitiseFileName('a\0b\n.gpkg'), 'a_b_.gpkg');
    assert.equal(sanitiseFileName('Zürich 1.geojson'), 'Zürich 1.geojson');
    assert.equal(sanitiseFileName('..'), null);
    assert.equal(sanitiseFileName(''), null);
  });

  it('puts the files of one drop in one new folder under imports/', async () => {
    const u = new ImportUploads(() => outputs);
    const first = await u.store({ name: 'scot.shp', body: bytes('sh', 'p') });
    const second = await u.store({ batch: first.batch, name: 'scot.dbf', body: bytes('dbf') });
    assert.equal(dirname(first.path), dirname(second.path));
    assert.equal(dirname(dirname(first.path)), join(outputs, 'imports'));
    assert.equal(readFileSync(first.path, 'utf8'), 'shp');
    const other = await u.store({ name: 'scot.shp', body: bytes('x') });
    assert.notEqual(dirname(other.path), dirname(first.path));
  });

  it('refuses an unknown batch, a name used twice in a drop and a file over the cap (leaving nothing behind)', async () => {
    const u = new ImportUploads(() => outputs, 4);
    await assert.rejects(
      u.store({ batch: '../../x', name: 'a.shp', body: bytes('a') }),
      (e: unknown) => e instanceof UploadError && e.status === 404,
    );
    const first = await u.store({ name: 'a.shp', body: bytes('a') });
    await assert.rejects(
      u.store({ batch: first.batch, name: 'a.shp', body: bytes('b') }),
      (e: unknown) => e instanceof UploadError && e.status === 409,
    );
    await assert.rejects(
      u.store({ batch: first.batch, name: 'big.tif', body: bytes('abc', 'de') }),
      (e: unknown) => e instanceof UploadError && e.status === 413,
    );
    assert.deepEqual(readdirSync(dirname(first.path)), ['a.shp']);
  });
});
