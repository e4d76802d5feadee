import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { appPaths, unpackedRoot } from './appPaths.js';

test('appPaths: in the checkout every path is under the repository', () => {
  const root = path.join(path.sep, 'src', 'mapwright');
  const paths = appPaths(root, false);
  assert.equal(paths.diskRoot, root);
  assert.equal(paths.workerEntry, path.join(root, 'dist', 'main', 'gis-worker.js'));
  assert.equal(paths.assetsDir, path.join(root, 'assets'));
  assert.equal(paths.rendererDir, path.join(root, 'dist', 'renderer'));
  assert.equal(paths.preload, path.join(root, 'dist', 'preload', 'preload.cjs'));
});

test('appPaths: packaged, what runs or is opened from the disk comes from app.asar.unpacked', () => {
  const resources = path.join(path.sep, 'opt', 'Mapwright', 'resources');
  const root = path.join(resources, 'app.asar');
  const unpacked = path.join(resources, 'app.asar.unpacked');
  const paths = appPaths(root, true);
  assert.equal(paths.diskRoot, unpacked);
  assert.equal(paths.workerEntry, path.join(unpacked, 'dist', 'main', 'gis-worker.js'));
  assert.equal(paths.assetsDir, path.join(unpacked, 'assets'));
  // createServices finds skills/, plugins/ and dist/main beside assetsDir: all unpacked.
  assert.equal(path.join(paths.assetsDir, '..', 'plugins'), path.join(unpacked, 'plugins'));
  // The renderer and preload are read through Electron's asar support.
  assert.equal(paths.rendererDir, path.join(root, 'dist', 'renderer'));
  assert.equal(paths.preload, path.join(root, 'dist', 'preload', 'preload.cjs'));
});

test('unpackedRoot: only a trailing .asar changes', () => {
  assert.equal(unpackedRoot('/r/app.asar'), '/r/app.asar.unpacked');
  assert.equal(unpackedRoot('C:\\Mapwright\\resources\\app.asar'), 'C:\\Mapwright\\resources\\app.asar.unpacked');
  assert.equal(unpackedRoot('/r/app'), '/r/app');
  assert.equal(unpackedRoot('/r/app.asar.unpacked'), '/r/app.asar.unpacked');
  assert.equal(unpackedRoot('/home/me/app.asarium'), '/home/me/app.asarium');
});
