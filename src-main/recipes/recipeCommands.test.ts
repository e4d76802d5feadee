import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { Recipe, type RecipeListing } from '../../src-shared/domain/recipe.js';
import type { ToolResult } from '../../src-shared/tools/toolResult.js';
import { fixtures, haveFixtures, scriptedToolCall, startApp } from '../composition/testApp.js';
import { makeTempDir } from '../gis-worker/testSupport.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';

const GDAL_ENV = { ...process.env, GDAL_PAM_ENABLED: 'NO' };

/** Feature count and total area of the one layer of a GeoPackage, by GDAL's own tools. */
function measure(file: string): { count: number; area: number } {
  const layer = /^1: (.*) \(/m.exec(execFileSync('ogrinfo', ['-ro', '-q', file], { encoding: 'utf8', env: GDAL_ENV }))![1]!;
  const text = execFileSync(
    'ogrinfo',
    ['-ro', '-q', '-dialect', 'SQLite', '-sql', `SELECT COUNT(*) AS n, SUM(ST_Area(geom)) AS a FROM "${layer}"`, file],
    {
      encoding: 'utf8',
      env: GDAL_ENV,
    },
  );
  return { count: Number(/n \(Integer\) = (\d+)/.exec(text)![1]), area: Number(/a \(Real\) = ([\d.e+]+)/.exec(text)![1]) };
}

/**
 * Issue 17 through the whole main process: a conversation reprojects, buffers and styles
 * layer A; its recipe is exported (JSON + shell script) and replayed on layer B, each step
 * asking; the script, run by sh on B, makes what the app made.
 */
describe('recipes: export a conversation, replay it on another layer', { skip: !haveFixtures && 'GIS fixtures not found' }, () => {
  let model: ScriptedModelServer;
  let app: Awaited<ReturnType<typeof startApp>>;
  const tmp = makeTempDir('mapwright-recipe-');
  let bPath: string;
  let bCount: number;
  let exported: { recipe: string; script: string | null; steps: number; skipped: unknown[] };
  scriptedModelSuite((started) => (model = started));

  const trigger = (entry: string, params: Record<string, unknown>) =>
    app.services.invoke('entries/trigger', { entry, params }) as Promise<ToolResult>;
  const layers = async () => ((await app.services.invoke('project/get', {})) as { layers: Layer[] }).layers;

  before(async () => {
    app = await startApp(model);
    // B: the counties of North Carolina whose name starts before 'G', in a file of their own.
    bPath = join(tmp.dir, 'b.gpkg');
    execFileSync('ogr2ogr', ['-f', 'GPKG', '-where', "NAME < 'G'", '-nln', 'b', bPath, join(fixtures, 'nc.gpkg')], { env: GDAL_ENV });
    bCount = measure(bPath).count;
    for (const [path, name] of [
      [join(fixtures, 'nc.gpkg'), 'A'],
      [bPath, 'B'],
    ] as const)
      assert.ok((await app.services.runForPerson('layers.load', { path, name })).ok);
  });
  after(async () => {
    await app?.services.close();
    tmp.cleanup();
  });

  it('exports the approved changes as a recipe and a script', async () => {
    const calls = [
      { name: 'processing_run', arguments: { algorithm: 'reproject', params: { input: 'A', target_crs: 'EPSG:32617' } } },
      { name: 'processing_run', arguments: { algorithm: 'buffer', params: { input: 'A_reproject', distance: 1000 } } },
      { name: 'style_set_simple', arguments: { layer: 'A_reproject_buffer', fill: '#ff0000' } },
    ];
    for (const call of calls) assert.ok((await scriptedToolCall(app, model, call)).result.ok, call.name);
    const result = await trigger('recipes.export', {});
    assert.ok(result.ok, JSON.stringify(result));
    exported = result.data as typeof exported;
    assert.equal(exported.steps, 3);
    const recipe = Recipe.parse(JSON.parse(readFileSync(exported.recipe, 'utf8')));
    assert.deepEqual(
      recipe.inputs.map((i) => [i.id, i.from, i.kind]),
      [['input1', 'A', 'vector']],
    );
    assert.deepEqual(recipe.steps[1]!.args.params, { input: { $step: 1, layer: 0 }, distance: 1000, segments: 8, dissolve: false });
    assert.deepEqual(recipe.steps[2]!.args.layer, { $step: 2, layer: 0 });
    const script = readFileSync(exported.script!, 'utf8');
    assert.match(script, /^#!\/bin\/sh\nset -eu|^#!\/bin\/sh\n#.*\n#.*\nset -eu/);
    assert.match(script, /# step 3: style\.set_simple has no command-line equivalent/);
    const listed = (await app.services.invoke('recipes/list', {})) as { recipes: RecipeListing[] };
    assert.deepEqual(
      listed.recipes.map((r) => [r.file, r.steps.length, r.problem]),
      [[exported.recipe.split('/').at(-1), 3, null]],
    );
  });

  it("replays on B with a dialog per step, and B's buffer has B's features", async () => {
    const file = exported.recipe.split('/').at(-1)!;
    const running = trigger('recipes.run', { file, inputs: { input1: 'B' } });
    for (const n of [1, 2, 3]) {
      const asked = await app.approval();
      assert.match(asked.summary, new RegExp(`^Recipe step ${n} of 3: `));
      await app.services.invoke('tools/decide', { approvalId: asked.id, decision: 'approve' });
    }
    const result = await running;
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual((result.data as { layers: string[] }).layers, ['B_reproject', 'B_reproject_buffer']);
    const buffered = (await layers()).find((l) => l.name === 'B_reproject_buffer')!;
    assert.equal(buffered.info.featureCount, bCount);
    assert.equal(buffered.style.type === 'simple' && buffered.style.fill, '#ff0000');

    // The script on B, by sh and GDAL's programs, makes what the app made.
    const out = join(tmp.dir, 'script-out');
    execFileSync('sh', [exported.script!, bPath], { env: { ...GDAL_ENV, OUT_DIR: out }, encoding: 'utf8' });
    const reprojected = (await layers()).find((l) => l.name === 'B_reproject')!;
    const byScript = { reproject: measure(join(out, 'step1_reproject.gpkg')), buffer: measure(join(out, 'step2_buffer.gpkg')) };
    const byApp = { reproject: measure(reprojected.source), buffer: measure(buffered.source) };
    for (const step of ['reproject', 'buffer'] as const) {
      assert.equal(byScript[step].count, bCount, step);
      assert.equal(byApp[step].count, bCount, step);
      assert.ok(
        Math.abs(byScript[step].area - byApp[step].area) / byApp[step].area < 1e-6,
        `${step}: ${byScript[step].area} vs ${byApp[step].area}`,
      );
    }
  });

  it('stops at a rejected step and says which', async () => {
    const file = exported.recipe.split('/').at(-1)!;
    const running = trigger('recipes.run', { file, inputs: { input1: 'B' } });
    await app.services.invoke('tools/decide', { approvalId: (await app.approval()).id, decision: 'approve' });
    const second = await app.approval();
    assert.match(second.summary, /^Recipe step 2 of 3/);
    await app.services.invoke('tools/decide', { approvalId: second.id, decision: 'reject' });
    const result = await running;
    assert.ok(!result.ok);
    assert.match(result.error.message, /Recipe step 2 of 3 \(processing\.run\) was rejected/);
  });

  it('refuses a malformed recipe, an unknown tool and a file name that leaves the folder', async () => {
    const dir = join(exported.recipe, '..');
    writeFileSync(join(dir, 'broken.recipe.json'), '{"format":"mapwright-recipe","version":1,"steps":"rm -rf"}');
    const bad = JSON.parse(readFileSync(exported.recipe, 'utf8')) as Recipe;
    bad.steps[2]!.tool = 'evil.tool';
    writeFileSync(join(dir, 'unknown.recipe.json'), JSON.stringify(bad));
    const broken = await trigger('recipes.run', { file: 'broken.recipe.json', inputs: { input1: 'B' } });
    assert.ok(!broken.ok && /not a valid Mapwright recipe/.test(broken.error.message), JSON.stringify(broken));
    const unknown = await trigger('recipes.run', { file: 'unknown.recipe.json', inputs: { input1: 'B' } });
    assert.ok(!unknown.ok && /evil\.tool.*Nothing was run/.test(unknown.error.message), JSON.stringify(unknown));
    for (const file of ['../x.recipe.json', '/etc/passwd', '.hidden.recipe.json']) {
      const refused = await trigger('recipes.run', { file, inputs: { input1: 'B' } });
      assert.ok(!refused.ok && /not a recipe file name/.test(refused.error.message), file);
    }
    const listed = (await app.services.invoke('recipes/list', {})) as { recipes: RecipeListing[] };
    assert.match(listed.recipes.find((r) => r.file === 'broken.recipe.json')!.problem ?? '', /not a valid/);
    assert.ok(existsSync(exported.recipe));
  });
});
