import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRecentFiles, MAX_RECENT, recentLabel } from './recentFiles.js';

function memoryDb() {
  const values = new Map<string, unknown>();
  return { get: <T>(k: string) => (values.has(k) ? (values.get(k) as T) : null), set: (k: string, v: unknown) => void values.set(k, v) };
}

describe('recent files', () => {
  it('keeps local paths newest first, each once, at most ten; URLs and relative paths are not files', () => {
    const db = memoryDb();
    const recent = createRecentFiles(db);
    for (let i = 0; i < 12; i++) recent.add(`/data/f${i}.gpkg`);
    recent.add('/data/f5.gpkg');
    recent.add('https://example.com/a.fgb');
    recent.add('relative.gpkg');
    const paths = recent.list().map((f) => f.path);
    assert.equal(paths.length, MAX_RECENT);
    assert.equal(paths[0], '/data/f5.gpkg');
    assert.equal(paths[1], '/data/f11.gpkg');
    assert.equal(paths.filter((p) => p === '/data/f5.gpkg').length, 1);
  });
  it('survives a damaged stored value', () => {
    const db = memoryDb();
    db.set('files.recent', 'not a list');
    assert.deepEqual(createRecentFiles(db).list(), []);
  });
  it('labels a sublayer after the file name', () => {
    assert.equal(recentLabel('/d/nc.gpkg|layername=counties'), 'nc.gpkg (counties)');
    assert.equal(recentLabel('/d/scot_BNG.shp'), 'scot_BNG.shp');
  });
});
