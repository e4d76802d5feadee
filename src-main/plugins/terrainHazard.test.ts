import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Layer } from '../../src-shared/domain/layer.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { PluginHost } from './pluginHost.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILT_IN = path.join(REPO, 'plugins');
const PLUGIN = path.join(BUILT_IN, 'terrain-hazard');
const DEM = path.join(PLUGIN, 'tests', 'data', 'dem.tif');

async function waitFor(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface BandStats {
  min: number;
  max: number;
}

function bandStats(file: string): BandStats {
  const info = JSON.parse(
    execFileSync('gdalinfo', ['-json', '-stats', file], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } }),
  ) as {
    bands: { minimum: number; maximum: number }[];
  };
  const band = info.bands[0]!;
  return { min: band.minimum, max: band.maximum };
}

describe('terrain_hazard: a domain pack as files only', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'mapwright-terrain-hazard-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  function host(name: string, builtInDir: string) {
    const home = path.join(root, name, 'home');
    const projectPath = path.join(root, name, 'project', 'project.mapwright');
    mkdirSync(path.dirname(projectPath), { recursive: true });
    const registry = new ToolRegistry([]);
    const outputs = path.join(root, name, 'outputs');
    const plugins = new PluginHost({
      home,
      projectPath,
      builtInDir,
      registry,
      tools: { outputsDir: () => outputs, hidePaths: () => [], readPaths: () => [] },
      changed: () => {},
      debounceMs: 50,
    });
    return { home, registry, plugins, outputs };
  }

  const ctx = (handles: object = {}) => ({ handles, caller: 'model' as const, signal: new AbortController().signal, progress: () => {} });

  it('is listed available once its self-tests pass; slope on a project layer gives degrees 0–90', async () => {
    const { registry, plugins } = host('builtin', BUILT_IN);
    await waitFor('terrain_hazard to finish its self-tests', () => {
      const p = plugins.list().find((x) => x.namespace === 'terrain_hazard');
      return p !== undefined && p.reasons[0]?.startsWith('its checks are running') !== true;
    });
    const info = plugins.list().find((x) => x.namespace === 'terrain_hazard')!;
    assert.match(info.id, /^terrain_hazard@/);
    assert.equal(info.state, 'available', JSON.stringify(info.reasons));
    assert.deepEqual(
      info.tools.map((t) => t.id),
      ['slope', 'aspect', 'ruggedness', 'reclassify', 'susceptibility'].map((n) => `terrain_hazard.${n}`),
    );
    const slope = registry.find('terrain_hazard_slope');
    assert.ok(slope, 'registered under its wire name');
    assert.equal(slope.def.safety, 'write');
    // Its plugin.yaml rules are declared for the dispatcher, which checks them before any dialog.
    assert.deepEqual(slope.def.rules, { dem: ['layer_exists', 'raster'] });

    // The model names a layer; the command gets the layer's file (copied outside the plugin folder).
    const data = path.join(root, 'data');
    mkdirSync(data, { recursive: true });
    const demCopy = path.join(data, 'elevation.tif');
    cpSync(DEM, demCopy);
    const layer = { id: 'L1', name: 'elevation', source: demCopy, sublayer: null, kind: 'raster' } as unknown as Layer;
    const project = {
      listLayers: () => [layer],
      getLayer: (idOrName: string) => (idOrName === 'elevation' || idOrName === 'L1' ? layer : undefined),
    };
    const args = slope.def.input.parse({ dem: 'elevation', scale: 111120 });
    const out = (await slope.def.execute(args, ctx({ project }) as never)) as { load_layers: { path: string }[] };
    assert.equal(out.load_layers.length, 1);
    const file = out.load_layers[0]!.path;
    assert.match(file, /slope_deg\.tif$/);
    const stats = bandStats(file);
    assert.ok(stats.min >= 0 && stats.max <= 90 && stats.max > stats.min, `slope in degrees: ${JSON.stringify(stats)}`);

    await assert.rejects(
      slope.def.execute(slope.def.input.parse({ dem: 'nowhere' }), ctx({ project }) as never),
      (err: Error & { code?: string }) => err.code === 'invalid_params',
    );
    await plugins.close();
  });

  it('adding it needs no change outside its folder: copied alone into a fresh home, it is available and runs', async () => {
    const empty = path.join(root, 'no-built-ins');
    mkdirSync(empty, { recursive: true });
    const { home, registry, plugins } = host('copied', empty);
    await plugins.close();
    cpSync(PLUGIN, path.join(home, 'plugins', 'terrain-hazard'), { recursive: true });
    const again = new PluginHost({
      home,
      projectPath: path.join(root, 'copied', 'project', 'project.mapwright'),
      builtInDir: empty,
      registry,
      tools: { outputsDir: () => path.join(root, 'copied', 'outputs'), hidePaths: () => [], readPaths: () => [] },
      changed: () => {},
    });
    await waitFor('the copy to finish its self-tests', () => {
      const p = again.list().find((x) => x.namespace === 'terrain_hazard');
      return p !== undefined && p.reasons[0]?.startsWith('its checks are running') !== true;
    });
    const info = again.list().find((x) => x.namespace === 'terrain_hazard')!;
    assert.equal(info.origin, 'user');
    assert.equal(info.state, 'available', JSON.stringify(info.reasons));
    const tri = registry.find('terrain_hazard_ruggedness');
    assert.ok(tri);
    // No project (as in a self-test): a package path, resolved against the copied folder.
    const out = (await tri.def.execute(tri.def.input.parse({ dem: 'tests/data/dem.tif' }), ctx() as never)) as {
      load_layers: { path: string }[];
    };
    const stats = bandStats(out.load_layers[0]!.path);
    assert.ok(stats.min >= 0 && stats.max > 0, JSON.stringify(stats));
    await again.close();
  });
});
