import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEntry } from '../store/auditRepo.js';
import { buildRecipe, type RecipeSource, type ToolFacts } from './buildRecipe.js';

let nextId = 1;
function row(toolId: string, args: unknown, more: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: nextId++,
    at: '2026-12-02T10:00:00.000Z',
    conversationId: 'c1',
    runId: 'r1',
    caller: 'model',
    toolId,
    toolVersion: '1.2.0',
    definitionHash: `hash-${toolId}`,
    args,
    decision: 'approved',
    decidedBy: 'user',
    outcome: 'ok',
    errorCode: null,
    durationMs: 5,
    ...more,
  };
}

const tools: ToolFacts = (id) =>
  ({
    'processing.run': { safety: 'write' as const },
    'style.set_simple': { safety: 'write' as const },
    'layers.rename': { safety: 'write' as const },
    'layers.load': { safety: 'write' as const },
    'edit.delete_features': { safety: 'write' as const },
    'annotations.move': { safety: 'write' as const, caller: 'user_only' as const },
    'inspect.layer_info': { safety: 'read' as const },
  })[id] ?? null;

const roads = {
  id: 'L-roads',
  name: 'roads',
  kind: 'vector' as const,
  source: '/data/roads.gpkg',
  sublayer: 'roads',
  info: { geometryType: 'LineString' },
};
const out = (name: string) => `/proj-outputs/${name}.gpkg`;

function source(rows: AuditEntry[], layers: unknown[] = [roads]): RecipeSource {
  return { name: 'Roads buffer', createdAt: '2026-12-02T10:05:00.000Z', rows, layers: layers as RecipeSource['layers'], tool: tools };
}

describe("buildRecipe: a conversation's audit rows become a replayable recipe", () => {
  it('names the first layer an input and a produced layer the step that made it', () => {
    const recipe = buildRecipe(
      source(
        [
          row('inspect.layer_info', { layer: 'roads' }, { decision: 'not_needed', decidedBy: 'policy' }),
          row('processing.run', {
            algorithm: 'reproject',
            params: { input: 'roads', target_crs: 'EPSG:32633' },
            output_name: 'roads_reproject',
            output_path: out('roads_reproject'),
          }),
          row('processing.run', {
            algorithm: 'buffer',
            params: { input: 'roads_reproject', distance: 50, segments: 8, dissolve: false },
            output_name: 'roads_50m',
            output_path: out('roads_50m'),
          }),
          // The GUI names layers by id: the output of step 2, found by its file.
          row('style.set_simple', { layer: 'L-out2', fill: '#ff0000' }, { caller: 'user', decision: 'user_action' }),
        ],
        [
          roads,
          {
            id: 'L-out2',
            name: 'roads_50m',
            kind: 'vector',
            source: out('roads_50m'),
            sublayer: 'roads_50m',
            info: { geometryType: 'MultiPolygon' },
          },
        ],
      ),
    );
    assert.deepEqual(recipe.inputs, [{ id: 'input1', from: 'roads', kind: 'vector', geometry: 'LineString' }]);
    assert.equal(recipe.steps.length, 3, 'the read is left out');
    assert.deepEqual(recipe.steps[0]!.args, { algorithm: 'reproject', params: { input: { $input: 'input1' }, target_crs: 'EPSG:32633' } });
    assert.deepEqual(recipe.steps[1]!.args.params, { input: { $step: 1, layer: 0 }, distance: 50, segments: 8, dissolve: false });
    assert.ok(
      !('output_path' in recipe.steps[1]!.args) && !('output_name' in recipe.steps[1]!.args),
      'host-chosen outputs are not replayed',
    );
    assert.deepEqual(recipe.steps[2]!.args, { layer: { $step: 2, layer: 0 }, fill: '#ff0000' });
    assert.equal(recipe.steps[0]!.definitionHash, 'hash-processing.run');
    assert.deepEqual(recipe.skipped, []);
  });

  it('leaves out failed, rejected and undone calls, and lists what it cannot replay with the reason', () => {
    const recipe = buildRecipe(
      source([
        row(
          'processing.run',
          { algorithm: 'buffer', params: { input: 'roads', distance: 5 } },
          { outcome: 'error', errorCode: 'invalid_params' },
        ),
        row('processing.run', { algorithm: 'buffer', params: { input: 'roads', distance: 6 } }, { decision: 'rejected', outcome: 'error' }),
        row('style.set_simple', { layer: 'roads', fill: '#00ff00' }, { runId: 'r2' }),
        row('style.set_simple', { layer: 'roads', fill: '#0000ff' }, { runId: 'r3' }),
        row('commands.undo', {}, { caller: 'user', decision: 'user_action', runId: null, toolId: 'commands.undo' }),
        row('edit.delete_features', { layer: 'roads', fids: [3, 4] }, { runId: 'r4' }),
        row('annotations.move', { id: 'a1', to: [0, 0] }, { caller: 'user', runId: null }),
        row('gone.tool', { layer: 'roads' }),
      ]),
    );
    assert.deepEqual(
      recipe.steps.map((s) => s.args),
      [{ layer: { $input: 'input1' }, fill: '#00ff00' }],
      'only the green style survives: the blue one was undone',
    );
    assert.deepEqual(
      recipe.skipped.map((s) => s.tool),
      ['style.set_simple', 'edit.delete_features', 'annotations.move', 'gone.tool'],
    );
    assert.match(recipe.skipped[0]!.reason, /undone/);
    assert.match(recipe.skipped[1]!.reason, /fid/);
    assert.match(recipe.skipped[2]!.reason, /person/);
  });

  it('Revert this turn takes back every change of the last run', () => {
    const recipe = buildRecipe(
      source([
        row('style.set_simple', { layer: 'roads', fill: '#111111' }, { runId: 'r1' }),
        row('style.set_simple', { layer: 'roads', fill: '#222222' }, { runId: 'r2' }),
        row('layers.rename', { layer: 'roads', name: 'streets' }, { runId: 'r2' }),
        row('commands.revert_turn', {}, { caller: 'user', runId: null }),
      ]),
    );
    assert.equal(recipe.steps.length, 1);
    assert.equal(recipe.skipped.length, 2);
  });

  it('follows a rename and treats a layer loaded from a file as an input', () => {
    const recipe = buildRecipe(
      source([
        row('layers.load', { path: '/data/rivers.shp', name: 'rivers' }),
        row('layers.rename', { layer: 'rivers', name: 'streams' }),
        row('style.set_simple', { layer: 'streams', fill: '#0000ff' }),
      ]),
    );
    assert.deepEqual(
      recipe.inputs.map((i) => i.from),
      ['rivers'],
    );
    assert.equal(recipe.inputs[0]!.kind, null, 'no longer in the project under that name');
    assert.deepEqual(
      recipe.steps.map((s) => s.args.layer),
      [{ $input: 'input1' }, { $input: 'input1' }],
    );
    assert.match(recipe.skipped[0]!.reason, /input/);
  });

  it('refuses to export a conversation with nothing to replay, saying why', () => {
    assert.throws(
      () =>
        buildRecipe(source([row('inspect.layer_info', { layer: 'roads' }), row('edit.delete_features', { layer: 'roads', fids: [1] })])),
      /Nothing to export.*fid/,
    );
  });
});
