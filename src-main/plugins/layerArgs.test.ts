import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { layerArgs } from './layerArgs.js';

const layer = (name: string, source: string, sublayer: string | null = null) =>
  ({ id: `id-${name}`, name, source, sublayer, kind: 'raster' }) as unknown as Layer;

describe('layerArgs: a layer parameter becomes the file a command opens', () => {
  const layers = [layer('dem', '/data/terrain/dem.tif'), layer('roads', '/data/vec/all.gpkg', 'roads')];
  const project = { getLayer: (n: string) => layers.find((l) => l.name === n || l.id === n) };
  const rules = { dem: ['layer_exists', 'raster'], roads: ['layer_exists'], label: [] };

  it('names become plain source paths (no |layername=), their folders readable; other params untouched', () => {
    const out = layerArgs(rules, { dem: 'dem', roads: 'id-roads', label: 'dem', scale: 2 }, project, '/plugins/x');
    assert.deepEqual(out.args, { dem: '/data/terrain/dem.tif', roads: '/data/vec/all.gpkg', label: 'dem', scale: 2 });
    assert.deepEqual(out.readPaths, ['/data/terrain', '/data/vec']);
  });

  it('a list of layers becomes a list of files', () => {
    const out = layerArgs({ inputs: ['layer_exists'] }, { inputs: ['dem', 'id-roads'] }, project, '/plugins/x');
    assert.deepEqual(out.args, { inputs: ['/data/terrain/dem.tif', '/data/vec/all.gpkg'] });
    assert.deepEqual(out.readPaths, ['/data/terrain', '/data/vec']);
  });

  it('an unknown layer is invalid_params; an omitted optional layer parameter is left out', () => {
    assert.throws(
      () => layerArgs(rules, { dem: 'nope' }, project, '/plugins/x'),
      (e: unknown) => e instanceof ToolFailure && e.code === 'invalid_params',
    );
    assert.deepEqual(layerArgs(rules, { scale: 1 }, project, '/plugins/x'), { args: { scale: 1 }, readPaths: [] });
  });

  it('without a project (self-tests) a relative value is a file of the package, and may not leave it', () => {
    const out = layerArgs(rules, { dem: 'tests/data/dem.tif' }, undefined, '/plugins/x');
    assert.deepEqual(out, { args: { dem: '/plugins/x/tests/data/dem.tif' }, readPaths: [] });
    assert.throws(
      () => layerArgs(rules, { dem: '../other/secret.tif' }, undefined, '/plugins/x'),
      (e: unknown) => e instanceof ToolFailure && e.code === 'invalid_params',
    );
  });
});
