import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Recipe } from '../../src-shared/domain/recipe.js';
import { GTIFF_CREATION } from '../gis-worker/algorithms/rasterInput.js';
import { recipeScript } from './recipeScript.js';

const HOSTILE = 'it\'s "$(touch PWNED)" `touch PWNED2`\nrm -rf ~ #';

function recipe(steps: unknown[], from = 'roads'): Recipe {
  return Recipe.parse({
    format: 'mapwright-recipe',
    version: 1,
    name: HOSTILE,
    createdAt: HOSTILE.slice(0, 40),
    inputs: [{ id: 'input1', from, kind: 'vector' }],
    steps,
  });
}

const step = (args: Record<string, unknown>, tool = 'processing.run') => ({ tool, version: '1', definitionHash: 'h', args });

describe('recipeScript', () => {
  it('writes the GeoTIFF options the GIS worker uses', () => {
    const text = recipeScript(recipe([step({ algorithm: 'slope', params: { input: { $input: 'input1' } } })])).text;
    for (const co of GTIFF_CREATION) assert.ok(text.includes(`-co '${co}'`), co);
  });

  it('comments a step without an equivalent, and every step that needs its output', () => {
    const script = recipeScript(
      recipe([
        step({ algorithm: 'dissolve', params: { input: { $input: 'input1' } } }),
        step({ algorithm: 'buffer', params: { input: { $step: 1, layer: 0 }, distance: 5 } }),
        step({ layer: { $input: 'input1' } }, 'style.set_simple'),
      ]),
    );
    assert.deepEqual(script.commandSteps, []);
    assert.match(script.text, /# step 1: processing.run has no command-line equivalent/);
    assert.match(script.text, /# step 2: processing.run has no command-line equivalent here: it needs a layer an earlier step/);
    assert.match(script.text, /# step 3: style.set_simple has no command-line equivalent/);
  });

  it("leaves out a step whose parameters do not pass the algorithm's own schema (a tampered recipe)", () => {
    const script = recipeScript(
      recipe([step({ algorithm: 'reproject', params: { input: { $input: 'input1' }, target_crs: "EPSG:4326'; touch PWNED; '" } })]),
    );
    assert.deepEqual(script.commandSteps, []);
    assert.ok(!script.text.includes('touch PWNED;'));
  });

  it('stays inert with hostile names and values: sh runs it without running any of them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-script-'));
    try {
      const script = recipeScript(recipe([step({ layer: { $input: 'input1' }, fill: HOSTILE }, 'style.set_simple')], HOSTILE));
      const file = join(dir, 'r.sh');
      writeFileSync(file, script.text);
      execFileSync('sh', ['-n', file]);
      const out = execFileSync('sh', [file, join(dir, `-${HOSTILE}`)], {
        cwd: dir,
        env: { ...process.env, OUT_DIR: join(dir, 'out') },
        encoding: 'utf8',
      });
      assert.match(out, /Outputs in/);
      assert.throws(() => execFileSync('ls', [join(dir, 'PWNED')], { stdio: 'ignore' }));
      assert.throws(() => execFileSync('ls', [join(dir, 'PWNED2')], { stdio: 'ignore' }));
      // Without its inputs it stops with the usage line before doing anything.
      assert.throws(() => execFileSync('sh', [file], { cwd: dir, stdio: 'pipe' }), /usage/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
