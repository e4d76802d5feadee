import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Recipe, type RecipeProgress } from '../../src-shared/domain/recipe.js';
import { toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import { replayRecipe, type RecipeStepCall, type ReplayDeps } from './replayRecipe.js';

const recipe = Recipe.parse({
  format: 'mapwright-recipe',
  version: 1,
  name: 'three steps',
  createdAt: '2026-12-02T10:00:00Z',
  inputs: [{ id: 'input1', from: 'roads', kind: 'vector' }],
  steps: [
    {
      tool: 'processing.run',
      version: '1.2.0',
      definitionHash: 'old',
      args: { algorithm: 'reproject', params: { input: { $input: 'input1' }, target_crs: 'EPSG:32633' } },
    },
    {
      tool: 'processing.run',
      version: '1.2.0',
      definitionHash: 'now',
      args: { algorithm: 'buffer', params: { input: { $step: 1, layer: 0 }, distance: 5 } },
    },
    { tool: 'style.set_simple', version: '1', definitionHash: 'now', args: { layer: { $step: 2, layer: 0 } } },
  ],
});

function deps(answers: ToolResult[], tools = ['processing.run', 'style.set_simple']) {
  const calls: RecipeStepCall[] = [];
  const progressed: Omit<RecipeProgress, 'file'>[] = [];
  let n = 0;
  const d: ReplayDeps = {
    async dispatch(call) {
      calls.push(call);
      const result = answers[n++] ?? { ok: true, data: {} };
      return { result, loadedLayers: result.ok ? [`made${n}`] : [] };
    },
    tool: (id) => (tools.includes(id) ? { version: '1.3.0', definitionHash: 'now', title: `Title of ${id}` } : null),
    layer: (ref) => (ref === 'B' || ref === 'id-B' ? { id: 'id-B', name: 'B' } : null),
    progress: (p) => progressed.push(p),
  };
  return { d, calls, progressed };
}

describe('replayRecipe', () => {
  it('runs every step in order, each output standing in for its placeholder, labelled for the dialog', async () => {
    const { d, calls, progressed } = deps([]);
    const report = await replayRecipe(recipe, { input1: 'B' }, d);
    // The panel says each running step in the interface language from these parts.
    assert.deepEqual(
      progressed.filter((p) => p.status === 'running').map((p) => [p.step, p.count, p.title]),
      [
        [1, 3, 'Title of processing.run'],
        [2, 3, 'Title of processing.run'],
        [3, 3, 'Title of style.set_simple'],
      ],
    );
    assert.deepEqual(
      calls.map((c) => c.label),
      ['Recipe step 1 of 3', 'Recipe step 2 of 3', 'Recipe step 3 of 3'],
    );
    assert.deepEqual(calls[0]!.args.params, { input: 'id-B', target_crs: 'EPSG:32633' });
    assert.deepEqual(calls[1]!.args.params, { input: 'made1', distance: 5 });
    assert.deepEqual(calls[2]!.args, { layer: 'made2' });
    assert.match(calls[0]!.note ?? '', /changed since this recipe was made/, 'a changed tool runs, and the dialog says so');
    assert.equal(calls[1]!.note, undefined);
    assert.deepEqual(report.layers, ['made1', 'made2', 'made3']);
  });

  it('stops at a rejected step, naming it, and runs nothing after it', async () => {
    const { d, calls } = deps([{ ok: true, data: {} }, toolError('rejected_by_user', 'The person rejected this call.')]);
    await assert.rejects(replayRecipe(recipe, { input1: 'B' }, d), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'rejected_by_user');
      assert.match(err.message, /Recipe step 2 of 3 \(processing\.run\) was rejected/);
      return true;
    });
    assert.equal(calls.length, 2);
  });

  it('stops at a failed step with its error code', async () => {
    const { d } = deps([toolError('invalid_params', 'No layer.')]);
    await assert.rejects(replayRecipe(recipe, { input1: 'B' }, d), /Recipe step 1 of 3 \(processing\.run\) failed \(invalid_params\)/);
  });

  it('runs nothing when a tool is unknown or an input is not mapped to a project layer', async () => {
    const unknown = deps([], ['processing.run']);
    await assert.rejects(
      replayRecipe(recipe, { input1: 'B' }, unknown.d),
      /step 3 of 3 uses the tool 'style\.set_simple'.*Nothing was run/,
    );
    assert.equal(unknown.calls.length, 0);
    const unmapped = deps([]);
    await assert.rejects(replayRecipe(recipe, {}, unmapped.d), /Choose a layer for input1.*roads/);
    await assert.rejects(replayRecipe(recipe, { input1: 'nope' }, unmapped.d), /no layer 'nope'/);
    assert.equal(unmapped.calls.length, 0);
  });
});
