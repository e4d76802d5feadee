import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PrivatePaths } from './privatePaths.js';

describe('PrivatePaths', () => {
  const root = mkdtempSync(join(tmpdir(), 'mw-private-'));
  const home = join(root, 'home');
  const outputs = join(home, 'projects', 'untitled-outputs');
  mkdirSync(outputs, { recursive: true });
  writeFileSync(join(home, 'mapwright.sqlite'), '');
  const project = join(home, 'projects', 'untitled.mapwright');
  const paths = PrivatePaths.forProject({ home, projectPath: project, outputsDir: outputs });

  it('covers the data folder, the project file and its WAL', () => {
    assert.ok(paths.isPrivate(join(home, 'mapwright.sqlite')));
    assert.ok(paths.isPrivate(`${project}-wal`));
    assert.ok(paths.isPrivate(join(home, 'secrets', 'model-keys.json')));
    assert.ok(paths.isPrivate(home));
  });
  it('sees through .. and symbolic links', () => {
    assert.ok(paths.isPrivate(join(root, 'elsewhere', '..', 'home', 'mapwright.sqlite')));
    const link = join(root, 'link');
    symlinkSync(home, link);
    assert.ok(paths.isPrivate(join(link, 'mapwright.sqlite')));
    assert.ok(paths.isPrivate(join(link, 'not-yet-there.txt')));
  });
  it('leaves the outputs folder and every other file readable', () => {
    assert.ok(!paths.isPrivate(join(outputs, 'buffer.gpkg')));
    assert.ok(!paths.isPrivate(join(root, 'home2', 'a.gpkg')), 'a sibling with the same prefix is not inside');
    assert.ok(!paths.isPrivate('/usr/share/a.tif'));
  });
});
