import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { useAppSession } from '../support/appSession.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { repoRoot } from '../support/webHost.js';

const CITIES = join(repoRoot, 'e2e', 'fixtures', 'gis', 'naturalearth_cities.shp');
const GDAL_ENV = { ...process.env, GDAL_PAM_ENABLED: 'NO' };

/** The towns of one region of Natural Earth's cities, cut by GDAL into a shapefile of their own. */
function towns(dir: string, name: string, bbox: [number, number, number, number]): { path: string; count: number } {
  const path = join(dir, `${name}.shp`);
  execFileSync('ogr2ogr', ['-spat', ...bbox.map(String), path, CITIES], { env: GDAL_ENV });
  const count = Number(/Feature Count: (\d+)/.exec(execFileSync('ogrinfo', ['-so', path, name], { encoding: 'utf8' }))![1]);
  return { path, count };
}

/**
 * Issue 17: a conversation reprojects and buffers towns A, the person approving; its recipe is
 * exported from the chat dock; towns B are loaded; the recipe runs on B from the Run recipe
 * panel, each step asking in the approval dialog; B's buffer is loaded with B's towns.
 */
describe('recipes: export a conversation, replay it on a second input, in Chromium', { skip: !existsSync(CITIES) }, () => {
  const session = useAppSession();
  let dir: string;
  let a: { path: string; count: number };
  let b: { path: string; count: number };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mapwright-recipe-e2e-'));
    a = towns(dir, 'towns_a', [-5, 42, 10, 51.5]); // France and its neighbours
    b = towns(dir, 'towns_b', [6, 36, 19, 47.5]); // Italy and its neighbours
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exports the recipe and replays it on towns B, step by step', async () => {
    const { app, page } = await session.openApp();
    const model = session.model;
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: a.path, name: 'towns_a' } }] },
      {
        toolCalls: [
          { name: 'processing_run', arguments: { algorithm: 'reproject', params: { input: 'towns_a', target_crs: 'EPSG:32632' } } },
        ],
      },
      {
        toolCalls: [{ name: 'processing_run', arguments: { algorithm: 'buffer', params: { input: 'towns_a_reproject', distance: 5000 } } }],
      },
      { text: 'Buffered the towns by 5 km.' },
    ]);
    await app.askAgent('load towns A, then buffer them by 5 km in metres');
    for (let i = 0; i < 3; i++) await app.approvePending();
    await app.waitForLayer('towns_a_reproject_buffer');
    await app.waitForMessage('assistant', /Buffered the towns/);

    // Export: the recipe (JSON) and the shell script, in the outputs folder.
    await page.getByTestId('recipe-export').click();
    const exported = page.getByTestId('recipe-exported');
    await exported.waitFor({ state: 'visible' });
    const text = await exported.innerText();
    const recipePath = /(\/\S+\.recipe\.json)/.exec(text)?.[1];
    assert.ok(recipePath, text);
    assert.match(text, /\.sh/);
    const recipe = JSON.parse(readFileSync(recipePath, 'utf8')) as { inputs: { id: string; from: string }[]; steps: unknown[] };
    assert.deepEqual(
      recipe.inputs.map((i) => [i.id, i.from]),
      [['input1', 'towns_a']],
    );
    assert.equal(recipe.steps.length, 2, 'the load of towns A is an input, not a step');
    await app.screenshot('r1-recipe-exported');

    // Towns B, loaded by the agent like A.
    model.script([{ toolCalls: [{ name: 'layers_load', arguments: { path: b.path, name: 'towns_b' } }] }, { text: 'Loaded towns B.' }]);
    await app.askAgent('load towns B');
    await app.approvePending();
    await app.waitForLayer('towns_b');

    // Run the recipe on B: each step asks, labelled with its place in the recipe.
    await page.getByTestId('recipe-run-open').click();
    await page.getByTestId('recipe-dialog').waitFor({ state: 'visible' });
    await page.locator('[data-testid="recipe-input"][data-input="input1"]').selectOption({ label: 'towns_b' });
    await app.screenshot('r2-recipe-dialog');
    await page.getByTestId('recipe-run').click();
    for (const n of [1, 2]) {
      const dialog = await app.waitForApproval();
      assert.match(dialog.text, new RegExp(`Recipe step ${n} of 2`));
      assert.match(dialog.text, n === 1 ? /reproject/ : /buffer/);
      if (n === 2) await app.screenshot('r3-recipe-step-dialog');
      await app.approvePending();
    }
    const status = page.locator('[data-testid="recipe-status"][data-state="done"]');
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await status.innerText(), /towns_b_reproject_buffer/);
    await app.waitForLayer('towns_b_reproject_buffer');
    await app.screenshot('r4-recipe-done');

    const bridge = await BridgeSocket.connect(session.host.url);
    const project = await bridge.call<{ layers: { name: string; info: { featureCount: number | null } }[] }>('project/get');
    bridge.close();
    const buffered = project.layers.find((l) => l.name === 'towns_b_reproject_buffer')!;
    assert.ok(b.count > 3 && b.count !== a.count, `two different sets of towns: ${a.count} and ${b.count}`);
    assert.equal(buffered.info.featureCount, b.count);
  });
});
